// A scripted stand-in for the OpenAI Responses API (`POST /v1/responses`, streamed as server-sent
// events), enough for Codex (via codex-acp) to run real turns offline: reasoning summaries, streamed
// answer text, and tool calls shaped the way the agent declared each tool (a JSON `function_call`
// for function tools such as `exec_command`, a free-form `custom_tool_call` for `apply_patch`).
import type http from "node:http";
import { chunkText, deltaPacer, endStream, isRecord, scriptedIds, sendJson, startScriptedModelServer, startSse, writeSse } from "./sse";
import { DEFAULT_CHUNK_SIZE, SIDE_CALL_TEXT, approxTokens, type ModelToolUse, type ModelTurn, type ScriptedModelServer } from "./script";

export type { ModelTurn, RecordedRequest, ScriptedModelServer } from "./script";

/**
 * A free-form tool (the Responses API's `custom` tool type, e.g. Codex's `apply_patch`) takes raw
 * text, not JSON: a scripted tool use gives that text as `input[FREEFORM_INPUT]`.
 */
export const FREEFORM_INPUT = "input";

type ToolKind = "function" | "custom";

/** Tools as Codex declares them: at the top level (`tools`) and inside `additional_tools` input items (namespaces). */
export function declaredTools(body: Record<string, unknown>): Map<string, ToolKind> {
  const found = new Map<string, ToolKind>();
  const visit = (tools: unknown): void => {
    if (!Array.isArray(tools)) return;
    for (const tool of tools) {
      if (!isRecord(tool)) continue;
      if (tool.type === "namespace") visit(tool.tools);
      else if ((tool.type === "function" || tool.type === "custom") && typeof tool.name === "string") found.set(tool.name, tool.type);
    }
  };
  visit(body.tools);
  if (Array.isArray(body.input)) for (const item of body.input) if (isRecord(item) && item.type === "additional_tools") visit(item.tools);
  return found;
}

/** "main" for the agent's coding loop (a request that offers tools); "other" for anything else it asks the model. */
export function classifyOpenAIRequest(body: Record<string, unknown>): string {
  return declaredTools(body).size > 0 ? "main" : "other";
}

export async function startOpenAIModelServer(): Promise<ScriptedModelServer> {
  const nextId = scriptedIds();
  return startScriptedModelServer(async ({ req, res, url, body, serveMainTurn, markSideCall }) => {
    if (url.pathname !== "/v1/responses" || req.method !== "POST" || !isRecord(body)) {
      // Unknown route: stays recorded with role "unknown" so a test can notice new traffic.
      sendJson(res, 404, { error: { type: "invalid_request_error", message: `scripted server: no route ${req.method ?? ""} ${url.pathname}` } });
      return;
    }
    const ctx: StreamContext = {
      model: typeof body.model === "string" ? body.model : "gpt-scripted",
      inputTokens: approxTokens(body.input),
      tools: declaredTools(body),
      nextId,
    };
    if (classifyOpenAIRequest(body) === "main") {
      await serveMainTurn((turn) => streamTurn(res, turn, ctx));
      return;
    }
    markSideCall("other");
    await streamTurn(res, { text: SIDE_CALL_TEXT, chunkSize: 1000 }, ctx);
  });
}

interface StreamContext {
  model: string;
  inputTokens: number;
  tools: Map<string, ToolKind>;
  nextId: (prefix: string) => string;
}

/** One output item: what `response.output_item.added` announces, the deltas that fill it, and the finished item. */
interface OutputItem {
  added: Record<string, unknown>;
  deltas: Record<string, unknown>[];
  done: Record<string, unknown>;
}

function reasoningItem(text: string, chunkSize: number, id: string): OutputItem {
  return {
    added: { type: "reasoning", id, summary: [] },
    deltas: [
      { type: "response.reasoning_summary_part.added", item_id: id, summary_index: 0, part: { type: "summary_text", text: "" } },
      ...chunkText(text, chunkSize).map((delta) => ({ type: "response.reasoning_summary_text.delta", item_id: id, summary_index: 0, delta })),
    ],
    done: { type: "reasoning", id, summary: [{ type: "summary_text", text }], encrypted_content: null },
  };
}

function messageItem(text: string, chunkSize: number, id: string): OutputItem {
  return {
    added: { type: "message", id, role: "assistant", status: "in_progress", content: [] },
    deltas: chunkText(text, chunkSize).map((delta) => ({ type: "response.output_text.delta", item_id: id, content_index: 0, delta })),
    done: { type: "message", id, role: "assistant", status: "completed", content: [{ type: "output_text", text, annotations: [] }] },
  };
}

/** A tool call in the shape the agent declared the tool with; an undeclared name is sent as a function call. */
function toolCallItem(use: ModelToolUse, ctx: StreamContext): OutputItem {
  const id = ctx.nextId("fc");
  const callId = ctx.nextId("call");
  if (ctx.tools.get(use.name) === "custom") {
    const input = use.input[FREEFORM_INPUT];
    if (typeof input !== "string") throw new Error(`scripted tool use ${use.name}: a free-form tool needs input.${FREEFORM_INPUT} as a string`);
    const item = { type: "custom_tool_call", id, call_id: callId, name: use.name, input };
    return { added: { ...item, input: "", status: "in_progress" }, deltas: [], done: { ...item, status: "completed" } };
  }
  const item = { type: "function_call", id, call_id: callId, name: use.name, arguments: JSON.stringify(use.input) };
  return { added: { ...item, arguments: "", status: "in_progress" }, deltas: [], done: { ...item, status: "completed" } };
}

function itemsOf(turn: ModelTurn, ctx: StreamContext): OutputItem[] {
  const chunkSize = turn.chunkSize ?? DEFAULT_CHUNK_SIZE;
  const items: OutputItem[] = [];
  if (turn.thinking) items.push(reasoningItem(turn.thinking, chunkSize, ctx.nextId("rs")));
  if (turn.text) items.push(messageItem(turn.text, chunkSize, ctx.nextId("msg")));
  for (const use of turn.toolUses ?? []) items.push(toolCallItem(use, ctx));
  return items;
}

/** Streams one scripted turn; resolves false if the client disconnected before the end. */
async function streamTurn(res: http.ServerResponse, turn: ModelTurn, ctx: StreamContext): Promise<boolean> {
  const items = itemsOf(turn, ctx);
  const responseId = ctx.nextId("resp");
  const outputTokens = approxTokens(turn);
  const head = { id: responseId, object: "response", model: ctx.model, status: "in_progress", output: [] };
  startSse(res);
  const pace = deltaPacer(res, turn);
  writeSse(res, { type: "response.created", response: head }, "response.created");
  for (const [outputIndex, item] of items.entries()) {
    writeSse(res, { type: "response.output_item.added", output_index: outputIndex, item: item.added }, "response.output_item.added");
    for (const delta of item.deltas) {
      await pace();
      // A client that went away (cancel) ends the stream here; nothing is left half-written.
      if (!writeSse(res, { ...delta, output_index: outputIndex }, String(delta.type))) return false;
    }
    writeSse(res, { type: "response.output_item.done", output_index: outputIndex, item: item.done }, "response.output_item.done");
  }
  const usage = {
    input_tokens: ctx.inputTokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: outputTokens,
    output_tokens_details: { reasoning_tokens: turn.thinking ? approxTokens(turn.thinking) : 0 },
    total_tokens: ctx.inputTokens + outputTokens,
  };
  const completed = { ...head, status: "completed", output: items.map((item) => item.done), usage };
  writeSse(res, { type: "response.completed", response: completed }, "response.completed");
  return endStream(res);
}
