import type { HostToWebview } from '../../src/contract/messages';
import { applyThreadDeltas } from '../../src/contract/threadDeltas';
import type { ThreadEntry } from '../../src/thread/entries';

/** Replays what the webview does with the host's messages (from the last snapshot on), to check the stream is complete. */
export function replayThread(messages: readonly HostToWebview[]): ThreadEntry[] {
  const start = Math.max(0, messages.map((message) => message.type).lastIndexOf('snapshot'));
  let entries: ThreadEntry[] = [];
  // Copies, as postMessage makes them: the host may still change the objects it posted.
  for (const message of structuredClone(messages.slice(start))) {
    if (message.type === 'snapshot') entries = message.state.entries;
    if (message.type === 'threadDeltas') entries = applyThreadDeltas(entries, message.deltas);
  }
  return entries;
}
