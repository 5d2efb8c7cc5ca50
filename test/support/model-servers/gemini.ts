// A scripted stand-in for the Gemini API (generativelanguage v1beta), enough for Gemini CLI
// (`gemini --acp`) to run real turns offline: SSE for the main turn, schema-shaped JSON for
// its side calls (next-speaker check, loop detection, routing), counts for countTokens.
import type http from "node:http";
import { chunkText, deltaPacer, endStream, isRecord, sendJson, startScriptedModelServer, startSse, writeSse } from "./sse";
import { DEFAULT_CHUNK_SIZE, SIDE_CALL_TEXT, approxTokens, type ModelTurn, type ScriptedModelServer } from "./script";

export type { ModelTurn, RecordedRequest, ScriptedModelServer } from "./script";

/** "/v1beta/models/gemini-2.5-pro:streamGenerateContent" -> model and method. */
const MODEL_ROUTE = /^\/v1(?:beta|alpha)?\/models\/([^/:]+):([A-Za-z]+)$/;

export async function startGeminiModelServer(): Promise<ScriptedModelServer> {
  let callIds = 0;
  return startScriptedModelServer(async ({ req, res, url, body, record, serveMainTurn, markSideCall }) => {
    const route = MODEL_ROUTE.exec(url.pathname);
    if (!route || req.method !== "POST" || !isRecord(body)) {
      // Unknown route: stays recorded with role "unknown" so a test can notice new traffic.
      sendJson(res, 404, { error: { code: 404, message: `scripted server: no route ${url.pathname}`, status: "NOT_FOUND" } });
      return;
    }
    const [, model = "gemini-scripted", method] = route;
    const promptTokens = approxTokens(body.contents);
    if (method === "countTokens") {
      record.role = "probe";
      sendJson(res, 200, { totalTokens: promptTokens });
      return;
    }
    const kind = classifyGeminiRequest(method ?? "", body);
    if (kind === "main") {
      await serveMainTurn((turn) => streamTurn(res, turn, { model, promptTokens, nextCallId: () => `call_scripted_${++callIds}` }));
      return;
    }
    markSideCall(kind);
    const response = candidateResponse(model, [{ text: sideCallText(body) }], "STOP", promptTokens);
    if (method === "streamGenerateContent") {
      startSse(res);
      writeSse(res, response);
      res.end();
    } else {
      sendJson(res, 200, response);
    }
  });
}

/**
 * "main" for the CLI's chat loop (streaming, with function declarations); otherwise a side-call
 * label. Side calls are non-streaming JSON-schema requests without tools.
 */
export function classifyGeminiRequest(method: string, body: Record<string, unknown>): string {
  const hasFunctions =
    Array.isArray(body.tools) && body.tools.some((tool) => isRecord(tool) && Array.isArray(tool.functionDeclarations) && tool.functionDeclarations.length > 0);
  if (method === "streamGenerateContent" && hasFunctions) return "main";
  const schema = responseSchemaOf(body);
  if (!isRecord(schema) || !isRecord(schema.properties)) return "other";
  const keys = Object.keys(schema.properties);
  const known = SIDE_CALL_NAMES.find(([property]) => keys.includes(property));
  return known ? known[1] : keys.sort().join("+") || "json";
}

/** Friendly names for the JSON side calls, keyed by a property of their response schema. */
const SIDE_CALL_NAMES: [property: string, name: string][] = [
  ["complexity_score", "router"],
  ["next_speaker", "next_speaker"],
  ["unproductive_state_confidence", "loop_detection"],
];

function responseSchemaOf(body: Record<string, unknown>): unknown {
  const config = isRecord(body.generationConfig) ? body.generationConfig : {};
  return config.responseJsonSchema ?? config.responseSchema;
}

/** A JSON side call gets a minimal value that fits its schema; a plain one gets short text. */
function sideCallText(body: Record<string, unknown>): string {
  const schema = responseSchemaOf(body);
  return schema === undefined ? SIDE_CALL_TEXT : JSON.stringify(valueForSchema(schema));
}

/**
 * Answers for the side calls seen from Gemini CLI 0.61, by response property: hand the turn back
 * to the user (next-speaker check), report no loop (loop detection), call the task simple (router).
 */
const KNOWN_SIDE_ANSWERS: Record<string, unknown> = {
  next_speaker: "user",
  unproductive_state_confidence: 0,
  complexity_score: 1,
};

const smallestNumber = (schema: Record<string, unknown>) => (typeof schema.minimum === "number" ? schema.minimum : 0);

/** Smallest value of each scalar schema type; any other type (or none) is answered as an object. */
const SCALAR_VALUES = new Map<string, (schema: Record<string, unknown>) => unknown>([
  ["string", () => "Scripted"],
  ["number", smallestNumber],
  ["integer", smallestNumber],
  ["boolean", () => false],
  ["array", () => []],
  ["null", () => null],
]);

/** Smallest value matching a (JSON or OpenAPI-style) schema; known property names get KNOWN_SIDE_ANSWERS. */
export function valueForSchema(schema: unknown, depth = 0): unknown {
  if (!isRecord(schema) || depth > 8) return null;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum.includes("user") ? "user" : schema.enum[0];
  const type = (Array.isArray(schema.type) ? schema.type[0] : schema.type) as unknown;
  const scalar = typeof type === "string" ? SCALAR_VALUES.get(type.toLowerCase()) : undefined;
  if (scalar) return scalar(schema);
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const out: Record<string, unknown> = {};
  for (const [key, sub] of Object.entries(properties)) {
    out[key] = key in KNOWN_SIDE_ANSWERS ? KNOWN_SIDE_ANSWERS[key] : valueForSchema(sub, depth + 1);
  }
  return out;
}

interface StreamContext {
  model: string;
  promptTokens: number;
  nextCallId: () => string;
}

type Part = Record<string, unknown>;

let responses = 0;

function candidateResponse(
  model: string,
  parts: Part[],
  finishReason: string | undefined,
  promptTokens: number,
  outputTokens = 0,
  responseId = `resp_scripted_${++responses}`,
): Record<string, unknown> {
  const candidate: Record<string, unknown> = { content: { role: "model", parts }, index: 0 };
  if (finishReason) candidate.finishReason = finishReason;
  return {
    candidates: [candidate],
    usageMetadata: {
      promptTokenCount: promptTokens,
      candidatesTokenCount: outputTokens,
      totalTokenCount: promptTokens + outputTokens,
    },
    modelVersion: model,
    responseId,
  };
}

/** Streams one scripted turn; resolves false if the client disconnected before the end. */
async function streamTurn(res: http.ServerResponse, turn: ModelTurn, ctx: StreamContext): Promise<boolean> {
  const chunkSize = turn.chunkSize ?? DEFAULT_CHUNK_SIZE;
  // Gemini streams answer text in pieces but a thought summary as one part (the CLI renders every
  // thought part as its own "**subject**\ndescription" update), and a function call as one part.
  const chunks: Part[] = [
    ...(turn.thinking ? [{ text: turn.thinking, thought: true }] : []),
    ...chunkText(turn.text ?? "", chunkSize).map((text) => ({ text })),
    ...(turn.toolUses ?? []).map((use) => ({ functionCall: { id: ctx.nextCallId(), name: use.name, args: use.input } })),
  ];
  const outputTokens = approxTokens(turn);
  const responseId = `resp_scripted_${++responses}`; // one id for all chunks of a stream, as the API does
  startSse(res);
  const pace = deltaPacer(res, turn);
  for (const [i, part] of chunks.entries()) {
    if (i > 0) await pace();
    const last = i === chunks.length - 1;
    // A client that went away (cancel) ends the stream here.
    if (!writeSse(res, candidateResponse(ctx.model, [part], last ? "STOP" : undefined, ctx.promptTokens, last ? outputTokens : 0, responseId))) return false;
  }
  if (chunks.length === 0) writeSse(res, candidateResponse(ctx.model, [{ text: "" }], "STOP", ctx.promptTokens, 1, responseId));
  return endStream(res);
}
