import type { HostToWebview } from '../../src/contract/messages';
import type { ThreadEntry } from '../../src/contract/viewModel';

/** Replays what the webview does with the host's messages (from the last snapshot on), to check the stream is complete. */
export function replayThread(messages: readonly HostToWebview[]): ThreadEntry[] {
  const start = Math.max(0, messages.map((message) => message.type).lastIndexOf('snapshot'));
  let entries: ThreadEntry[] = [];
  for (const message of messages.slice(start)) {
    if (message.type === 'snapshot') entries = structuredClone(message.state.entries);
    if (message.type !== 'threadDeltas') continue;
    for (const delta of message.deltas) {
      if (delta.type === 'entryAdded') entries.push(structuredClone(delta.entry));
      if (delta.type === 'entryUpdated') entries = entries.map((entry) => (entry.id === delta.entry.id ? structuredClone(delta.entry) : entry));
      if (delta.type === 'textAppended') {
        const entry = entries.find((candidate) => candidate.id === delta.entryId);
        if (entry && 'text' in entry) entry.text += delta.text;
      }
      if (delta.type === 'threadCleared') entries = [];
    }
  }
  return entries;
}
