// Shared plumbing for the scripted model servers: a loopback HTTP server that records every
// request and serves the turn queue, JSON bodies, server-sent events, and a close() that does
// not wait for keep-alive sockets.
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { TurnQueue, type ModelTurn, type RecordedRequest, type ScriptedModelServer } from "./script";

interface LoopbackServer {
  /** e.g. "http://127.0.0.1:43121" (no trailing slash). */
  readonly url: string;
  close(): Promise<void>;
}

export type RequestHandler = (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>;

/** Listens on 127.0.0.1 with an OS-chosen port. Handler errors become a 500, never a crash. */
async function startLoopbackServer(handler: RequestHandler): Promise<LoopbackServer> {
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    handler(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { type: "test_server_error", message: String(error) } });
      else res.destroy();
    });
  });
  // Agents keep connections alive; track them so close() returns promptly.
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** One request as a scripted model server's routes see it, recorded already (role "unknown" until they decide). */
export interface ScriptedExchange {
  req: http.IncomingMessage;
  res: http.ServerResponse;
  url: URL;
  body: unknown;
  record: RecordedRequest;
  /** Serves the next queued turn as the agent's main turn; `stream` resolves false when the client hung up mid-stream. */
  serveMainTurn(stream: (turn: ModelTurn) => Promise<boolean>): Promise<void>;
  /** Records the request as a side call of this kind (title, suggestion, ...): it consumes no turn. */
  markSideCall(kind: string): void;
}

/** A loopback server that records every request and routes it, with the queue of turns the test fills. */
export async function startScriptedModelServer(route: (exchange: ScriptedExchange) => Promise<void>): Promise<ScriptedModelServer> {
  const queue = new TurnQueue();
  const requests: RecordedRequest[] = [];
  const server = await startLoopbackServer(async (req, res) => {
    const { url, body, record } = await recordRequest(req, requests);
    const serveMainTurn = async (stream: (turn: ModelTurn) => Promise<boolean>): Promise<void> => {
      record.role = "main";
      record.turn = queue.next();
      record.disconnected = !(await stream(record.turn));
      record.streamEndedAt = Date.now();
    };
    const markSideCall = (kind: string): void => {
      record.role = "side";
      record.sideCall = kind;
    };
    await route({ req, res, url, body, record, serveMainTurn, markSideCall });
  });
  return {
    url: server.url,
    requests,
    get pendingTurns() {
      return queue.length;
    },
    enqueue: (...turns) => queue.push(turns),
    close: () => server.close(),
  };
}

/** Ids as the APIs hand them out, numbered per server: "msg_scripted_0001", "toolu_scripted_0002", ... */
export function scriptedIds(): (prefix: string) => string {
  let ids = 0;
  return (prefix) => `${prefix}_scripted_${String(++ids).padStart(4, "0")}`;
}

/** Reads the whole body; parses JSON when there is any, otherwise returns the raw text (or undefined). */
export async function readBody(req: http.IncomingMessage, limitBytes = 64 * 1024 * 1024): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > limitBytes) throw new Error(`request body over ${limitBytes} bytes`);
    chunks.push(buf);
  }
  if (size === 0) return undefined;
  const text = Buffer.concat(chunks).toString("utf8");
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Reads a request's body and appends its record (role "unknown" until a handler decides). */
async function recordRequest(req: http.IncomingMessage, requests: RecordedRequest[]): Promise<{ url: URL; body: unknown; record: RecordedRequest }> {
  const url = new URL(req.url ?? "/", "http://127.0.0.1");
  const body = await readBody(req);
  const record: RecordedRequest = {
    method: req.method ?? "GET",
    path: url.pathname,
    search: url.search,
    headers: req.headers,
    body,
    role: "unknown",
    at: Date.now(),
  };
  requests.push(record);
  return { url, body, record };
}

export function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(payload) });
  res.end(payload);
}

export function startSse(res: http.ServerResponse): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  res.flushHeaders();
}

/** Writes one SSE frame; returns false once the client is gone so callers can stop streaming. */
export function writeSse(res: http.ServerResponse, data: unknown, event?: string): boolean {
  if (isGone(res)) return false;
  const head = event === undefined ? "" : `event: ${event}\n`;
  res.write(`${head}data: ${JSON.stringify(data)}\n\n`);
  return true;
}

/** Ends a fully written stream; false when the client went away first (a cancel mid-turn). */
export function endStream(res: http.ServerResponse): boolean {
  if (isGone(res)) return false;
  res.end();
  return true;
}

/** True when the client disconnected (or we already finished): a cancel mid-turn shows up here. */
export function isGone(res: http.ServerResponse): boolean {
  return res.destroyed || res.writableEnded;
}

/** Sleeps, but wakes early when the response's client disconnects. */
export function pause(res: http.ServerResponse, ms: number): Promise<void> {
  if (ms <= 0 || isGone(res)) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      res.off("close", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    res.on("close", done);
  });
}

/**
 * Waits before each streamed delta as the turn asks: a fixed pause (`delayMs`), or a steady
 * rate (`deltasPerSecond`, a model's token stream; deltas due within the same millisecond go out
 * together, as they would in one TCP segment), or not at all.
 */
export function deltaPacer(res: http.ServerResponse, pacing: { delayMs?: number; deltasPerSecond?: number }): () => Promise<void> {
  const rate = pacing.deltasPerSecond ?? 0;
  if (rate <= 0) return () => pause(res, pacing.delayMs ?? 0);
  const started = performance.now();
  let sent = 0;
  return () => {
    const due = started + (sent++ * 1000) / rate;
    return pause(res, Math.floor(due - performance.now()));
  };
}

/** Splits text into pieces of `size` characters (code points, so emoji are never cut). */
export function chunkText(text: string, size: number): string[] {
  const chars = Array.from(text);
  const step = Math.max(1, Math.floor(size));
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += step) out.push(chars.slice(i, i + step).join(""));
  return out;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
