/**
 * The streams an agent's text reaches the client in, piece by piece, each as real agents frame
 * it (see acp-notes.md): a credential can be cut at any boundary between two pieces. Each kind
 * makes the frames that carry `first` and then `second` of one text.
 */
import type { Frame } from '../../src/wire/frame';

let clock = Date.UTC(2026, 0, 3, 3, 4, 5);
const inFrame = (message: unknown): Frame => ({ at: clock++, direction: 'in', text: JSON.stringify(message) });
const outFrame = (message: unknown): Frame => ({ at: clock++, direction: 'out', text: JSON.stringify(message) });
const notify = (update: Record<string, unknown>) => inFrame({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 'sess-1', update } });

export interface StreamKind {
  readonly name: string;
  frames(first: string, second: string): Frame[];
}

const terminalOutputAsk = (id: number) => inFrame({ jsonrpc: '2.0', id, method: 'terminal/output', params: { sessionId: 'sess-1', terminalId: 'term-1' } });
const terminalOutputAnswer = (id: number, output: string, truncated: boolean) => outFrame({ jsonrpc: '2.0', id, result: { output, truncated } });

export const STREAM_KINDS: readonly StreamKind[] = [
  {
    name: 'agent text pieces',
    frames: (first, second) => [first, second].map((text) => notify({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } })),
  },
  {
    // Claude and Codex report a command they run themselves as a display terminal: new output in `_meta`.
    name: 'terminal_output deltas',
    frames: (first, second) => [first, second].map((data) => notify({ sessionUpdate: 'tool_call_update', toolCallId: 'toolu_01', _meta: { terminal_output: { terminal_id: 'toolu_01', data } } })),
  },
  {
    name: 'tool_call_update contents',
    frames: (first, second) => [first, second].map((text) => notify({ sessionUpdate: 'tool_call_update', toolCallId: 'call-7', content: [{ type: 'content', content: { type: 'text', text } }] })),
  },
  {
    // ACP's answer holds all the output kept so far.
    name: 'terminal/output answers, all the output so far',
    frames: (first, second) => [terminalOutputAsk(31), terminalOutputAnswer(31, first, false), terminalOutputAsk(32), terminalOutputAnswer(32, first + second, false)],
  },
  {
    // The byte limit dropped the start of the output: the second answer holds only what is new.
    name: 'terminal/output answers, the start dropped at the limit',
    frames: (first, second) => [terminalOutputAsk(41), terminalOutputAnswer(41, first, false), terminalOutputAsk(42), terminalOutputAnswer(42, second, true)],
  },
];
