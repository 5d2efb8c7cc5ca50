import type { ThreadEntry } from '../../src/contract/viewModel';
import { button, el, icon } from '../dom';
import type { PostToHost } from '../vscodeApi';

type UserEntry = Extract<ThreadEntry, { kind: 'user' }>;

/** Past either, a message is folded: a 200 KB paste drawn whole was one 142,000 px row. */
const FOLD_LINES = 40;
const FOLD_CHARS = 4_000;
/** What a folded message shows of itself. */
const PREVIEW_LINES = 12;
const PREVIEW_CHARS = 1_200;

function lineCount(text: string): number {
  let lines = 1;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines++;
  return lines;
}

function preview(text: string): string {
  let end = 0;
  for (let line = 0; line < PREVIEW_LINES && end !== -1; line++) end = text.indexOf('\n', end + (line === 0 ? 0 : 1));
  const cut = Math.min(end === -1 ? text.length : end, PREVIEW_CHARS);
  return `${text.slice(0, cut).trimEnd()}…`;
}

function showAllLabel(text: string): string {
  const lines = lineCount(text);
  return lines > 1 ? `Show all (${lines.toLocaleString('en-US')} lines)` : `Show all (${text.length.toLocaleString('en-US')} characters)`;
}

/**
 * The user's messages in the thread: a long one folded to its first lines with "Show all" (only
 * the view is folded; the agent got the whole text), and one whose turn a window reload cut off
 * marked "Interrupted" with Retry, which sends its text again.
 */
export class UserMessages {
  /** Messages the user unfolded: they stay open when the row is drawn again (checkpoints, appended text). */
  private readonly unfolded = new Set<string>();

  constructor(private readonly post: PostToHost) {}

  clear(): void {
    this.unfolded.clear();
  }

  render(entry: UserEntry, ...after: (HTMLElement | null)[]): HTMLElement {
    return el('div', { class: `entry user-message${entry.interrupted ? ' interrupted' : ''}`, 'data-entry-id': entry.id },
      this.text(entry), this.interruption(entry), ...after);
  }

  private text(entry: UserEntry): HTMLElement {
    const long = entry.text.length > FOLD_CHARS || lineCount(entry.text) > FOLD_LINES;
    if (!long) return el('div', { class: 'user-text' }, entry.text);
    const open = this.unfolded.has(entry.id);
    const body = el('div', { class: 'user-text' }, open ? entry.text : preview(entry.text));
    const toggle = el('button', { class: 'user-text-toggle', 'aria-expanded': String(open) }, icon(open ? 'chevron-up' : 'chevron-down'), ` ${open ? 'Show less' : showAllLabel(entry.text)}`);
    const holder = el('div', { class: `user-text-fold${open ? '' : ' folded'}` }, body, toggle);
    toggle.addEventListener('click', () => {
      if (this.unfolded.has(entry.id)) this.unfolded.delete(entry.id);
      else this.unfolded.add(entry.id);
      holder.replaceWith(this.text(entry));
    });
    return holder;
  }

  private interruption(entry: UserEntry): HTMLElement | null {
    if (!entry.interrupted) return null;
    return el('div', { class: 'user-interrupted', role: 'status' },
      icon('debug-disconnect'), el('span', {}, 'Interrupted: the window reloaded before the agent answered.'),
      button('Retry', { icon: 'refresh', secondary: true, title: 'Send this message again', onClick: () => this.post({ type: 'retryMessage', entryId: entry.id }) }));
  }
}
