import { highlightCode } from '../codeLanguages';
import { el } from '../dom';
import { highlightedFragment } from '../markdown';

export type DiffLineKind = 'added' | 'removed' | 'context';

/** One line of a diff as drawn: its numbers before and after the change (null: not on that side). */
export interface NumberedLine {
  kind: DiffLineKind;
  old: number | null;
  new: number | null;
  text: string;
}

const signs: Record<DiffLineKind, string> = { added: '+', removed: '−', context: ' ' };
const spoken: Record<DiffLineKind, string> = { added: 'added', removed: 'removed', context: 'unchanged' };

/** The highlight.js language of a file, from its extension (highlight.js knows most by alias). */
export function languageOfPath(path: string): string {
  const name = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/** A line's code, coloured when its language is loaded (a lazily loaded one is plain until the card is drawn again). */
function codeOf(text: string, language: string): HTMLElement {
  const code = el('code', { class: 'diff-code hljs' });
  const highlighted = language ? highlightCode(text, language, () => undefined) : 'unknown';
  if (typeof highlighted === 'object') code.append(highlightedFragment(highlighted.html));
  else code.textContent = text;
  return code;
}

/**
 * Diff lines in a block that scrolls sideways instead of wrapping code mid-token, with a gutter of
 * old and new line numbers. Focusable, since a scroller the keyboard cannot reach cannot be read
 * without a mouse; `label` names it.
 */
export function renderDiffLines(lines: readonly (NumberedLine | { gap: string })[], language: string, label: string): HTMLElement {
  const rows = el('div', { class: 'diff-rows' });
  for (const line of lines) {
    if ('gap' in line) {
      rows.append(el('div', { class: 'diff-line diff-gap' }, el('span', { class: 'diff-gap-text' }, line.gap)));
      continue;
    }
    rows.append(el('div', { class: `diff-line diff-${line.kind}` },
      el('span', { class: 'diff-num', 'aria-hidden': 'true' }, line.old === null ? '' : String(line.old)),
      el('span', { class: 'diff-num', 'aria-hidden': 'true' }, line.new === null ? '' : String(line.new)),
      el('span', { class: 'diff-sign', 'aria-hidden': 'true' }, signs[line.kind]),
      el('span', { class: 'visually-hidden' }, `${spoken[line.kind]} line ${line.new ?? line.old ?? ''}: `),
      codeOf(line.text, language)));
  }
  return el('div', { class: 'diff-body', tabindex: '0', role: 'group', 'aria-label': label }, rows);
}
