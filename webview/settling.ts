/**
 * Keeps the newest `keep` blocks laid out in full and settles the one that falls out of them
 * (`settled`: media/panel.css lets it skip drawing out of view, its height remembered). A block
 * that settled the moment it came would be sized a frame late, moving the end of a view that
 * follows it.
 */
export function keepNewestDrawn(drawn: HTMLElement[], block: HTMLElement, keep = 2): void {
  drawn.push(block);
  if (drawn.length > keep) drawn.shift()?.classList.add('settled');
}
