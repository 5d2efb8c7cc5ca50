/**
 * A long streamed answer and the check that the panel followed it: shared by the code-server
 * e2e that proves the panel keeps its last line in view and by the streaming bench, which times
 * a turn only if the reader sees that line.
 */

/** Markdown like a long real answer: headings, paragraphs, lists and fenced code, about `bytes` long, its last line `marker`. */
export function longMarkdown(bytes: number, marker: string): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const part = i % 5 === 4
      ? `\`\`\`ts\nexport function step${i}(input: number): number {\n  return input * ${i} + ${i % 7};\n}\n\`\`\`\n\n`
      : i % 5 === 2
        ? `- item ${i}: **bold** and \`code\`\n- a [link](src/file${i}.ts#L${i}) and more text\n\n`
        : `## Section ${i}\n\nThis paragraph ${i} explains a change in plain words, long enough to wrap across the panel's width twice over.\n\n`;
    parts.push(part);
    size += part.length;
  }
  return `${parts.join('')}${marker}\n`;
}

/**
 * Whether the newest message's line holding `marker` is inside the thread's visible area: the
 * panel followed the answer to its end. Runs in the panel's document (pass it to
 * waitForFunction or evaluate); it declares no functions of its own, so its source has no helper
 * the TypeScript loader adds.
 */
export function lastLineInView(marker: string): boolean {
  const thread = document.querySelector('#thread');
  const messages = document.querySelectorAll('.agent-message');
  const last = messages[messages.length - 1];
  if (!thread || !last) return false;
  const lines = [...last.querySelectorAll('p, li, pre, h1, h2, h3, h4')].filter((element) => (element.textContent ?? '').includes(marker));
  const line = lines[lines.length - 1];
  if (!line) return false;
  const box = line.getBoundingClientRect();
  const view = thread.getBoundingClientRect();
  return box.top >= view.top - 1 && box.bottom <= view.bottom + 1;
}
