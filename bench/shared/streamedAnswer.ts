/**
 * The long answer the streaming measurements send and the deltas it is cut into, defined once so
 * the streaming section, host ingest's redaction figures, compareBuilds and the extension-host
 * profiler all stream the same text.
 */
import { longMarkdown } from '../../test/support/longAnswer';

/** Characters per scripted delta: about what a real model sends per token event. */
export const CHUNK = 12;

/** The answer's last line: the panel has shown the whole answer once this is in its document. */
export const END_MARKER = 'END-OF-STREAMING-BENCH';

/** The bench's answer: a long markdown text ending with END_MARKER. */
export function benchMarkdown(bytes: number): string {
  return longMarkdown(bytes, END_MARKER);
}
