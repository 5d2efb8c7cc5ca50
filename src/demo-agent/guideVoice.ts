import { codeList, echo, filesWith, formGreeting, type CheckOutcome, type TourReport, type TourScope, type Voice } from './voice';

/** "Demo Guide": whole sentences that say what Tandem is showing at each step. */

const THOUGHTS: Record<Parameters<Voice['thought']>[0], string> = {
  chat: 'The user wrote a message of their own. I will look at the folder and answer, then point them at the tour.',
  tour: 'A tour: read the sample project, fix the three things its check complains about , then run the check in a terminal so the user can watch it.',
  edit: 'Only the edits this time: two files with separate hunks, one new file and one deletion.',
  run: 'Run the sample project\'s own check in a terminal; it prints one coloured line per rule.',
  plan: 'Show how a plan moves: four steps, one at a time.',
  form: 'Ask for a few details with a form; the client validates it before it reaches me.',
  reset: 'Put back what this session changed, so the tour can start over.',
};

function listingText(listing: readonly string[] | null): string {
  if (listing === null) return 'You declined the listing, so I did not look at your files.';
  if (listing.length === 0) return 'Your workspace folder looks empty.';
  return `Your workspace has ${listing.length} top-level entries, for example:\n\n${listing.slice(0, 6).map((file) => `- \`${file}\``).join('\n')}`;
}

function checkText(check: CheckOutcome | null): string[] {
  if (!check) return [];
  if (!check.ran) return ['- **No command ran**: this client does not offer terminals (`terminal/create`).'];
  return [`- **Ran** \`node scripts/check.mjs\` in a terminal you could watch live, colours and all. It said "${check.summary}" (exit code ${check.exitCode ?? 'none'}).`];
}

function editLines(report: TourReport): string[] {
  const lines: string[] = [];
  const changed = filesWith(report, 'changed');
  if (changed.length > 0) {
    lines.push(`- **Changed** ${codeList(changed)} through Tandem (\`fs/write_text_file\`). Every change is a hunk with **Keep** and **Undo**, in its card above and over the line in the editor: keep one, undo another, and the file on disk follows.`);
  }
  const created = filesWith(report, 'created');
  if (created.length > 0) lines.push(`- **Created** ${codeList(created)}; undoing it removes the file again.`);
  const deleted = filesWith(report, 'deleted');
  if (deleted.length > 0) {
    lines.push(`- **Deleted** ${codeList(deleted)}. ACP has no request for deleting a file, so I removed it from disk myself, as real agents do; Tandem compared it before and after and kept its text, so **Undo** in its card brings it back.`);
  }
  const rejected = filesWith(report, 'rejected');
  if (rejected.length > 0) lines.push(`- **You said no** to ${codeList(rejected)}, so I left that as it was.`);
  const unchanged = filesWith(report, 'unchanged', 'missing');
  if (unchanged.length > 0) lines.push(`- **Nothing left to change** in ${codeList(unchanged)}: send **/reset** to put the files back, then **/tour** again.`);
  return lines;
}

function nextSteps(scope: TourScope): string {
  if (scope === 'run') return 'Undo a hunk and send **/run** again: the check reads what is on disk now.';
  return 'Next: pick **Demo Terse** in the **Model** picker and send **/tour** again, set **Mode** to **Edit freely** to skip the questions, or try **/form**.';
}

export const guideVoice: Voice = {
  thought: (topic) => THOUGHTS[topic],

  chat: (request, listing) => [
    "**I'm Tandem's demo agent** (model: Demo Guide): a scripted stand-in that runs offline, so you can try the panel before connecting a real agent.",
    '',
    `You wrote: _${echo(request)}_`,
    '',
    listingText(listing),
    '',
    'To see what Tandem does with an agent\'s work, send **/tour**: I change this sample project (you keep or undo each hunk), create and delete a file, and run its check in a live terminal. The **Model** and **Mode** pickers below the box change how I answer and whether I ask first; **/form**, **/plan**, **/run** and **/reset** show one thing each.',
    '',
    'After the tour, `src/main.ts` greets the whole team:',
    '',
    '```ts',
    'for (const name of team) console.log(greeting(name));',
    '```',
  ].join('\n'),

  report: (report, scope) => [
    scope === 'run' ? '## The check' : '## What I did',
    '',
    ...editLines(report),
    ...checkText(report.check),
    '',
    'The plan above the message box followed each step, and the usage meter shows what this session has "cost" so far (pretend money).',
    '',
    nextSteps(scope),
  ].join('\n'),

  plan: () => 'That was a plan: the strip above the message box counted the steps as they completed. Real agents post one for longer jobs and update it as they go.',

  form: (answer) => {
    if (answer.action !== 'accept' || !answer.content) {
      return `You ${answer.action === 'decline' ? 'declined' : 'dismissed'} the form, so nothing was sent to me. Send **/form** to see it again.`;
    }
    const fields = Object.entries(answer.content).map(([name, value]) => `- **${name}**: ${echo(String(value))}`).join('\n');
    return `Thanks, Tandem checked the form before sending it. You submitted:\n\n${fields}\n\nSo the greeting is: **${echo(formGreeting(answer.content))}**`;
  },

  noForm: () => 'This client does not offer forms (`elicitation/create`), so I cannot ask you one. Tandem does: open this sample in Tandem to try it.',

  reset: (restored, rejected) => {
    if (rejected) return 'You said no, so the files stay as they are.';
    if (restored.length === 0) return 'Nothing to put back: this session has not changed any file that differs now. Send **/tour** to start.';
    return `I put back ${codeList(restored)} as they were before this session changed them. Those writes wait for your review like any other change; keep them and the sample is fresh for **/tour**.`;
  },

  refusal: (kind) => (kind === 'tandem'
    ? "This folder is Tandem's own repository, and the tour only changes a copy of the sample workspace. Run `npm start` in the clone: it opens such a copy."
    : 'The tour changes files and runs a command, so it only works in Tandem\'s sample workspace (its package.json is named `tandem-sample-workspace`), never in a project of yours. Run `npm start` in a Tandem clone to open a copy.'),
};
