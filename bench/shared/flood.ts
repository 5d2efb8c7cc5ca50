/**
 * The flood the scripted agent sends: one agent_message_chunk line repeated, and the size a pipe
 * hands it over in. Host ingest and the inspector feed the same bytes through different paths.
 */

/** The text of every chunk the scripted agent's `flood` sends. */
export const FLOOD_CHUNK_TEXT = 'chunk-of-12 ';
/** A Linux pipe hands a reader up to 64 KiB at a time; the in-memory feed uses the same size. */
export const PIPE_CHUNK_BYTES = 64 * 1024;

/** One `session/update` line exactly as the scripted agent writes it (checked against the wire). */
export function chunkLine(sessionId: string): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    method: 'session/update',
    params: { sessionId, update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: FLOOD_CHUNK_TEXT } } },
  });
}

export function floodNdjson(count: number, sessionId: string): string {
  return `${chunkLine(sessionId)}\n`.repeat(count);
}
