// A scripted stand-in for the Anthropic Messages API, enough for Claude Code (via
// claude-agent-acp) to run real turns offline: streaming SSE for the main turn, short canned
// answers for side calls, and sensible replies to its probes.
import type http from "node:http";
import { chunkText, deltaPacer, endStream, isRecord, scriptedIds, sendJson, startScriptedModelServer, startSse, writeSse } from "./sse";
import { DEFAULT_CHUNK_SIZE, SIDE_CALL_TEXT, SUGGESTION_TEXT, approxTokens, type ModelTurn, type ScriptedModelServer } from "./script";

export type { ModelTurn, RecordedRequest, ScriptedModelServer } from "./script";

/** Tools only the agent's real coding loop offers; title generation etc. carry none of them. */
const MAIN_TURN_TOOLS = new Set(["Write", "Edit", "Bash"]);
/**
 * Claude Code forks its conversation for some side jobs and keeps the full tool list (to share
 * the prompt cache), so those requests look like main turns except for their last user message.
 */
const FORKED_SIDE_CALLS: { kind: string; marker: string }[] = [
  { kind: "suggestion", marker: "[SUGGESTION MODE" },
  { kind: "compaction", marker: "create a detailed summary of the conversation" },
];
const FAKE_SIGNATURE = "c2NyaXB0ZWQtdGhpbmtpbmctc2lnbmF0dXJl";

/** "main" for the agent's coding loop, otherwise the kind of side call (e.g. "title", "suggestion"). */
export function classifyClaudeRequest(body: Record<string, unknown>): string {
  const tools = Array.isArray(body.tools) ? body.tools : [];
  const hasCodingTools = tools.some((tool) => isRecord(tool) && typeof tool.name === "string" && MAIN_TURN_TOOLS.has(tool.name));
  const lastText = lastUserText(body.messages);
  const fork = FORKED_SIDE_CALLS.find((side) => lastText.includes(side.marker));
  if (fork) return fork.kind;
  if (hasCodingTools) return "main";
  return JSON.stringify(body.system ?? "").includes("naming a coding session") ? "title" : "other";
}

function lastUserText(messages: unknown): string {
  if (!Array.isArray(messages)) return "";
  const last: unknown = messages[messages.length - 1];
  if (!isRecord(last) || last.role !== "user") return "";
  if (typeof last.content === "string") return last.content;
  if (!Array.isArray(last.content)) return "";
  return last.content.map((block) => (isRecord(block) && typeof block.text === "string" ? block.text : "")).join("\n");
}

export async function startClaudeModelServer(): Promise<ScriptedModelServer> {
  const nextId = scriptedIds();
  return startScriptedModelServer(async ({ req, res, url, body, record, serveMainTurn, markSideCall }) => {
    if (url.pathname === "/v1/messages" && req.method === "POST" && isRecord(body)) {
      const ctx: StreamContext = { model: typeof body.model === "string" ? body.model : "claude-scripted", inputTokens: approxTokens(body.messages), nextId };
      const kind = classifyClaudeRequest(body);
      if (kind === "main") {
        await serveMainTurn((turn) => streamTurn(res, turn, ctx));
      } else {
        markSideCall(kind);
        const text = kind === "suggestion" ? SUGGESTION_TEXT : SIDE_CALL_TEXT;
        await answerSideCall(res, text, body.stream === true, ctx);
      }
      return;
    }
    if (url.pathname === "/v1/messages/count_tokens" && req.method === "POST") {
      record.role = "probe";
      sendJson(res, 200, { input_tokens: approxTokens(isRecord(body) ? body.messages : body) });
      return;
    }
    if (url.pathname === "/api/hello") {
      // Connectivity probe (HEAD or GET): any 2xx means "reachable".
      record.role = "probe";
      res.writeHead(200, { "content-type": "application/json" });
      res.end(req.method === "HEAD" ? undefined : JSON.stringify({ message: "hello" }));
      return;
    }
    // Unknown route: stays recorded with role "unknown" so a test can notice new traffic.
    sendJson(res, 404, { type: "error", error: { type: "not_found_error", message: `scripted server: no route ${url.pathname}` } });
  });
}

interface StreamContext {
  model: string;
  inputTokens: number;
  nextId: (prefix: string) => string;
}

type Block =
  | { kind: "thinking"; text: string }
  | { kind: "text"; text: string }
  | { kind: "tool_use"; name: string; input: Record<string, unknown> };

function blocksOf(turn: ModelTurn): Block[] {
  const blocks: Block[] = [];
  if (turn.thinking) blocks.push({ kind: "thinking", text: turn.thinking });
  if (turn.text) blocks.push({ kind: "text", text: turn.text });
  for (const use of turn.toolUses ?? []) blocks.push({ kind: "tool_use", name: use.name, input: use.input });
  return blocks;
}

/** Streams one scripted turn; resolves false if the client disconnected before the end. */
async function streamTurn(res: http.ServerResponse, turn: ModelTurn, ctx: StreamContext): Promise<boolean> {
  const chunkSize = turn.chunkSize ?? DEFAULT_CHUNK_SIZE;
  const blocks = blocksOf(turn);
  const stopReason = turn.toolUses?.length ? "tool_use" : "end_turn";
  const outputTokens = approxTokens(blocks);
  startSse(res);
  const pace = deltaPacer(res, turn);
  writeSse(
    res,
    {
      type: "message_start",
      message: {
        id: ctx.nextId("msg"),
        type: "message",
        role: "assistant",
        model: ctx.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: ctx.inputTokens, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      },
    },
    "message_start",
  );
  for (const [index, block] of blocks.entries()) {
    const { start, deltas, tail } = blockEvents(block, chunkSize, ctx);
    writeSse(res, { type: "content_block_start", index, content_block: start }, "content_block_start");
    for (const delta of [...deltas, ...tail]) {
      await pace();
      // A client that went away (cancel) ends the stream here; nothing is left half-written.
      if (!writeSse(res, { type: "content_block_delta", index, delta }, "content_block_delta")) return false;
    }
    writeSse(res, { type: "content_block_stop", index }, "content_block_stop");
  }
  writeSse(
    res,
    {
      type: "message_delta",
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { input_tokens: ctx.inputTokens, output_tokens: outputTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    },
    "message_delta",
  );
  writeSse(res, { type: "message_stop" }, "message_stop");
  return endStream(res);
}

function blockEvents(
  block: Block,
  chunkSize: number,
  ctx: StreamContext,
): { start: Record<string, unknown>; deltas: Record<string, unknown>[]; tail: Record<string, unknown>[] } {
  switch (block.kind) {
    case "thinking":
      return {
        start: { type: "thinking", thinking: "", signature: "" },
        deltas: chunkText(block.text, chunkSize).map((thinking) => ({ type: "thinking_delta", thinking })),
        // The API always closes a thinking block with a signature; Claude Code keeps it for the next request.
        tail: [{ type: "signature_delta", signature: FAKE_SIGNATURE }],
      };
    case "text":
      return {
        start: { type: "text", text: "" },
        deltas: chunkText(block.text, chunkSize).map((text) => ({ type: "text_delta", text })),
        tail: [],
      };
    case "tool_use":
      return {
        start: { type: "tool_use", id: ctx.nextId("toolu"), name: block.name, input: {} },
        deltas: chunkText(JSON.stringify(block.input), chunkSize).map((partial_json) => ({ type: "input_json_delta", partial_json })),
        tail: [],
      };
  }
}

async function answerSideCall(res: http.ServerResponse, text: string, stream: boolean, ctx: StreamContext): Promise<void> {
  if (stream) {
    await streamTurn(res, { text, chunkSize: 1000 }, ctx);
    return;
  }
  sendJson(res, 200, {
    id: ctx.nextId("msg"),
    type: "message",
    role: "assistant",
    model: ctx.model,
    content: [{ type: "text", text }],
    stop_reason: "end_turn",
    stop_sequence: null,
    usage: { input_tokens: ctx.inputTokens, output_tokens: approxTokens(text), cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
  });
}
