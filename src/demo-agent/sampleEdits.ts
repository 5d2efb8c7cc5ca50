/**
 * What the tour changes in the sample workspace: exactly the three things its check
 * (scripts/check.mjs) complains about. Each change is a replacement applied only where its
 * text is found and not already made, so a second tour after Keep changes nothing and one
 * after Undo makes the same change again.
 */

export interface Replacement {
  find: string;
  replaceWith: string;
}

export interface FileEdit {
  file: string;
  /** Separate places in the file, so that the review shows them as separate hunks. */
  replacements: readonly Replacement[];
}

export const GREETING_EDIT: FileEdit = {
  file: 'src/greeting.ts',
  replacements: [
    { find: 'export function greeting(', replaceWith: '/** What the app says first: "Hello, Ada!". */\nexport function greeting(' },
    { find: '\nexport function farewell(', replaceWith: '\n/** What the app says last. */\nexport function farewell(' },
    { find: '`Goodbye, ${name}.`', replaceWith: '`Goodbye, ${name}. See you soon!`' },
  ],
};

export const MAIN_EDIT: FileEdit = {
  file: 'src/main.ts',
  replacements: [
    { find: "import { farewell, greeting } from './greeting';\n", replaceWith: "import { farewell, greeting } from './greeting';\nimport { team } from './team';\n" },
    {
      find: "// TODO: greet everyone on the team, not just one name.\nconsole.log(greeting('Tandem'));\nconsole.log(farewell('Tandem'));",
      replaceWith: "for (const name of team) console.log(greeting(name));\nconsole.log(farewell('everyone'));",
    },
  ],
};

export const NEW_FILE = {
  file: 'src/team.ts',
  text: "/** Everyone the app greets, in the order they joined. */\nexport const team = ['Ada', 'Grace', 'Linus'];\n",
};

export const REMOVED_FILE = 'src/legacy.ts';

/** The text with each replacement made once where it applies (unchanged text: nothing left to do). */
export function applyEdit(text: string, edit: FileEdit): string {
  let result = text;
  for (const { find, replaceWith } of edit.replacements) {
    if (!result.includes(replaceWith) && result.includes(find)) result = result.replace(find, () => replaceWith);
  }
  return result;
}
