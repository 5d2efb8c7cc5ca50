import { el, icon } from '../dom';

/**
 * The tool card's "Show frames" link: opens the frame inspector filtered to this tool call (its
 * updates, permission request and answer, and the fs and terminal calls made for it).
 */
export function showFramesLink(toolCallId: string, showFrames: (toolCallId: string) => void): HTMLElement {
  const link = el('a', { href: '#', class: 'show-frames-link', title: 'Show the messages between Tandem and the agent for this tool call' }, icon('list-flat'), ' Show frames');
  link.addEventListener('click', (event) => {
    event.preventDefault();
    showFrames(toolCallId);
  });
  return el('div', { class: 'tool-frames' }, link);
}

/**
 * Brings a card into view and marks it for a moment: where "Show in thread" from the inspector
 * lands. False when the thread shows no card for that tool call.
 */
export function revealToolCard(thread: HTMLElement, toolCallId: string): boolean {
  const card = [...thread.querySelectorAll<HTMLElement>('[data-tool-call-id]')].find((candidate) => candidate.dataset.toolCallId === toolCallId);
  if (!card) return false;
  // A folded group of reads hides its cards: it opens to show this one.
  for (let group = card.closest('details'); group; group = group.parentElement?.closest('details') ?? null) group.open = true;
  card.scrollIntoView({ block: 'center' });
  card.classList.add('revealed');
  card.setAttribute('tabindex', '-1');
  card.focus({ preventScroll: true });
  setTimeout(() => card.classList.remove('revealed'), 2000);
  return true;
}
