// The script API shared by the Claude, Gemini and OpenAI scripted model servers.
// A test enqueues turns; each "main turn" request from the agent (the one carrying its coding
// tools) consumes one. Side calls (titles, next-speaker checks, ...) never touch the queue.

export interface ModelToolUse {
  /** The vendor tool name the agent knows, e.g. "Write" (Claude) or "write_file" (Gemini). */
  name: string;
  input: Record<string, unknown>;
}

/**
 * One model response. Give every turn some text or a tool use: Gemini CLI treats a response with
 * neither as a broken stream and retries, which would consume the next turn.
 */
export interface ModelTurn {
  /** Claude: streamed as thinking_delta pieces. Gemini: one thought part, rendered "**subject**\ndescription". */
  thinking?: string;
  text?: string;
  /** Characters per streamed delta (text, thinking, tool input JSON); default 12. */
  chunkSize?: number;
  /** Pause between deltas, in ms; the stream stops early if the client disconnects. */
  delayMs?: number;
  /** Instead of `delayMs`: a steady rate of deltas per second, like a model's token stream. */
  deltasPerSecond?: number;
  /** When present the model stops for tool use; the agent's follow-up request consumes the next turn. */
  toolUses?: ModelToolUse[];
}

/** What the server did with a request: consumed a turn, answered a side call, or something else. */
export type RequestRole = "main" | "side" | "probe" | "unknown";

export interface RecordedRequest {
  method: string;
  /** Path without the query string, e.g. "/v1/messages". */
  path: string;
  /** Query string including "?", or "". */
  search: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  role: RequestRole;
  /** The turn served to a main request (the fallback turn when the queue was empty). */
  turn?: ModelTurn;
  /** For role "side": what the server took it for, e.g. "title", "suggestion", "next_speaker". */
  sideCall?: string;
  /** True when the client hung up before the scripted stream was complete (e.g. a cancel mid-turn). */
  disconnected?: boolean;
  /** Date.now() when the request arrived. */
  at: number;
  /** Date.now() when the server wrote the last byte of a main turn's stream (or the client hung up). */
  streamEndedAt?: number;
}

export interface ScriptedModelServer {
  /** Base URL, "http://127.0.0.1:PORT"; give it to the agent as its API base URL. */
  readonly url: string;
  /** Every request received, in arrival order (unknown routes included, role "unknown"). */
  readonly requests: RecordedRequest[];
  /** Turns still waiting for a main request. */
  readonly pendingTurns: number;
  enqueue(...turns: ModelTurn[]): void;
  close(): Promise<void>;
}

export const DEFAULT_CHUNK_SIZE = 12;
/** Answer to a main request when the test queued nothing more: keeps runaway agents finite. */
export const EMPTY_QUEUE_TEXT = "Nothing more is scripted.";
/** Answer to text side calls (titles, summaries): short and recognisable. */
export const SIDE_CALL_TEXT = "Scripted title";
/** Answer to "what will the user type next" side calls. */
export const SUGGESTION_TEXT = "Scripted suggestion";

/** FIFO of turns with a fixed fallback. */
export class TurnQueue {
  private readonly turns: ModelTurn[] = [];

  get length(): number {
    return this.turns.length;
  }

  push(turns: ModelTurn[]): void {
    this.turns.push(...turns);
  }

  next(): ModelTurn {
    return this.turns.shift() ?? { text: EMPTY_QUEUE_TEXT };
  }
}

/** Rough token count for usage figures: agents only need plausible, non-zero numbers. */
export function approxTokens(value: unknown): number {
  const text = typeof value === "string" ? value : JSON.stringify(value ?? "");
  return Math.max(1, Math.ceil(text.length / 4));
}
