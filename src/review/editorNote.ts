/**
 * How every note Tandem adds to a prompt begins: the agent (and whoever reads the traffic) can
 * tell the editor's words from the user's own.
 */
export const EDITOR_NOTE_PREFIX = '[Note from the editor:';

/** `text` as a note from the editor, in the one bracketed form every such note has. */
export function editorNote(text: string): string {
  return `${EDITOR_NOTE_PREFIX} ${text}]`;
}
