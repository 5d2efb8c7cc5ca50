/**
 * Markdown written for the editor's preview from text agents, files and settings control: such
 * text goes in as text, so nothing in it can make markup, a link or a broken table.
 */

/** Plain text: every character Markdown reads as syntax escaped, line breaks as spaces. */
export function markdownText(value: string): string {
  return value.replace(/[\\`*_{}[\]()<>#+!|~-]/g, (char) => `\\${char}`).replace(/\r?\n/g, ' ');
}

/** Inline code that survives backticks and table pipes in it. */
export function markdownCode(value: string): string {
  const clean = value.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
  const fence = clean.includes('`') ? '``' : '`';
  return `${fence} ${clean} ${fence}`;
}

/** A table of cells already written as Markdown, or "None." without rows; ends with a blank line. */
export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  if (rows.length === 0) return ['_None._', ''];
  return [`| ${header.join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`, ...rows.map((row) => `| ${row.join(' | ')} |`), ''];
}
