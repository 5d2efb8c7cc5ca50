/**
 * Text an agent or a project wrote, as a consent surface shows it. Some characters change what a
 * user reads without showing themselves: bidi controls reorder what follows (`readme\u202Ehs.dm`
 * reads "readmemd.sh"), zero-width and tag characters hide text or smuggle it past the eye, other
 * controls do whatever the renderer makes of them. Each is shown as an escape instead, such as
 * `⟨U+202E⟩`. Runs of line breaks and spaces cannot push the rest of a text out of view: a title
 * padded with 40 line breaks keeps its `&& curl … | sh` on the first line.
 */

/** Line breaks as renderers honour them: CR LF, LF, CR, and Unicode's line and paragraph separators. */
const LINE_BREAK = /\r\n|[\n\r\u2028\u2029]/g;

/**
 * What is escaped: controls (C0 but tab, line feed and carriage return; DEL; C1), format characters
 * (bidi embeddings, overrides, isolates and marks, zero-width characters, the byte order mark, tags,
 * the soft hyphen), lone surrogates, Hangul fillers that draw as blanks, and the supplementary
 * variation selectors, which modify no character anyone writes and so can carry hidden bytes.
 */
const HIDDEN = /(?![\t\n\r])[\p{Cc}\p{Cf}\p{Cs}\u{E0100}-\u{E01EF}]|\u115F|\u1160|\u3164|\uFFA0/gu;

/** Spaces other than line breaks; `\s` would also take U+FEFF, which is escaped above. */
const SPACE_RUN = /[\t \u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]+/g;

/** A multi-line text keeps indentation up to this many spaces; a longer run is counted instead. */
const MAX_KEPT_SPACES = 8;
/** A multi-line text keeps a blank line between paragraphs; a longer run of breaks is counted instead. */
const MAX_KEPT_BREAKS = 2;

function escapeHidden(text: string): string {
  return text.replace(HIDDEN, (char) => `⟨U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}⟩`);
}

/** Every whitespace run that holds a line break, with the number of breaks in it. */
const BREAK_RUN = /[\t \u00A0\u1680\u2000-\u200A\u202F\u205F\u3000\n\r\u2028\u2029]*[\n\r\u2028\u2029][\t \u00A0\u1680\u2000-\u200A\u202F\u205F\u3000\n\r\u2028\u2029]*/g;

function breaksIn(run: string): number {
  return run.match(LINE_BREAK)?.length ?? 0;
}

const breakMark = (count: number) => (count === 1 ? '⏎' : `⏎×${count}`);

/** For one line (a title, a name, a path, a button): line breaks show as ⏎, any run of spaces as one. */
export function visibleText(text: string): string {
  return escapeHidden(text).trim()
    .replace(BREAK_RUN, (run) => ` ${breakMark(breaksIn(run))} `)
    .replace(SPACE_RUN, ' ');
}

/**
 * For several lines (a command, a message): line breaks stay breaks, up to one blank line; a longer
 * run collapses to one break, marked with its count at the end of the line; a long run of spaces is counted.
 */
export function visibleLines(text: string): string {
  return escapeHidden(text).trim()
    .replace(BREAK_RUN, (run) => {
      const count = breaksIn(run);
      const indent = run.slice(run.search(/[^\n\r\u2028\u2029]*$/));
      return count <= MAX_KEPT_BREAKS ? `${'\n'.repeat(count)}${indent}` : ` ${breakMark(count)}\n${indent}`;
    })
    .replace(SPACE_RUN, (run) => (run.length > MAX_KEPT_SPACES ? ` ⟨${run.length} spaces⟩ ` : run));
}
