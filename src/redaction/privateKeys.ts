/**
 * PEM private keys in free text, for findSecrets: the body between BEGIN and END lines, across real
 * or escaped (`\n`) newlines, or the base64 lines above an END whose BEGIN is not in the text.
 */
import type { TextRange } from './textRange';

export const PEM_BEGIN = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----/g;
export const PEM_END = /-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----/g;
const LINE_BREAK = /(\r?\n|\\r?\\n)/;
const KEY_BODY_LINE = /^[ \t]*(?:[A-Za-z0-9+/=]{16,})?[ \t]*$/;
/** How far above an END line its body is looked for when its BEGIN is not in the text. */
const KEY_BODY_REACH = 16 * 1024;

/** Where the body of a key above `endAt` starts (its base64 lines) when its BEGIN line is not in the text. */
function keyBodyAbove(text: string, endAt: number, notBefore: number): number {
  const from = Math.max(notBefore, endAt - KEY_BODY_REACH);
  // Line, break, line, ... : walked back over whole lines while they are key body.
  const pieces = text.slice(from, endAt).split(LINE_BREAK);
  let cursor = endAt;
  let start = endAt;
  for (let index = pieces.length - 1; index >= 0; index -= 2) {
    const line = pieces[index] ?? '';
    if (!KEY_BODY_LINE.test(line)) break;
    cursor -= line.length;
    if (line.trim()) start = cursor;
    cursor -= pieces[index - 1]?.length ?? 0;
  }
  return start;
}

/** PEM private keys, across real or escaped (`\n`) newlines; a key cut off before END is still a key. */
export function addPrivateKeys(text: string, found: TextRange[]): void {
  let searchFrom = 0;
  // The next BEGIN is looked up again only once the one found is used up, so that many END
  // lines without BEGIN lines cost one pass, not one pass each.
  PEM_BEGIN.lastIndex = 0;
  let begin = PEM_BEGIN.exec(text);
  PEM_END.lastIndex = 0;
  for (let end = PEM_END.exec(text); end; end = PEM_END.exec(text)) {
    const opened = begin !== null && begin.index < end.index;
    const bodyStart = begin && opened ? begin.index + begin[0].length : keyBodyAbove(text, end.index, searchFrom);
    if (end.index > bodyStart) found.push({ start: bodyStart, end: end.index });
    searchFrom = PEM_END.lastIndex;
    if (opened) {
      PEM_BEGIN.lastIndex = searchFrom;
      begin = PEM_BEGIN.exec(text);
    }
  }
  if (begin && begin.index >= searchFrom) found.push({ start: begin.index + begin[0].length, end: text.length });
}

/** Where `pattern` last matches in `text`, or -1. */
export function lastMatchAt(pattern: RegExp, text: string): number {
  let index = -1;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) index = match.index;
  return index;
}

/** A BEGIN line with no END after it: the text ends inside a key. */
export function opensPrivateKey(text: string): boolean {
  return lastMatchAt(PEM_BEGIN, text) > lastMatchAt(PEM_END, text);
}
