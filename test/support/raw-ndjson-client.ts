// A minimal JSON-RPC 2.0 client over a child process's stdio, one JSON message per line.
// No SDK on purpose: it is the reference baseline for the benchmarks and a test utility that
// sees every frame exactly as the agent wrote it.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";

export interface SpawnSpec {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
}

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** Thrown by request() for an error response; throw it from onRequest to answer with an error. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = "RpcError";
  }
}

export interface RawClientOptions {
  /** Agent -> client requests; return the result or throw (RpcError for a specific code). Missing: -32601. */
  onRequest?: (method: string, params: unknown) => unknown;
  /** Agent -> client notifications, called in wire order. */
  onNotification?: (method: string, params: unknown) => void;
  /** Every raw line, both directions, before parsing: for traffic logs and benchmarks. */
  onFrame?: (direction: "in" | "out", line: string) => void;
  /** Default timeout for request(); every wait is bounded. */
  requestTimeoutMs?: number;
}

interface Pending {
  method: string;
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

type Message = {
  id?: number | string | null;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: JsonRpcErrorObject;
};

const STDERR_KEEP = 64 * 1024;

export class RawNdjsonClient {
  readonly child: ChildProcessWithoutNullStreams;
  /** Resolves when the process has exited (never rejects). */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly pending = new Map<number, Pending>();
  private readonly options: RawClientOptions;
  private nextId = 0;
  private buffer = "";
  private stderrTail = "";
  private exitInfo: string | undefined;

  static spawn(spec: SpawnSpec, options: RawClientOptions = {}): RawNdjsonClient {
    return new RawNdjsonClient(spec, options);
  }

  private constructor(spec: SpawnSpec, options: RawClientOptions) {
    this.options = options;
    // detached: the agent leads its own process group, so close() can kill its helpers too
    // (claude-agent-acp runs a native `claude` child; other agents relaunch themselves).
    this.child = spawn(spec.command, spec.args, { cwd: spec.cwd, env: spec.env, stdio: "pipe", detached: true });
    this.child.stdout.setEncoding("utf8");
    this.child.stderr.setEncoding("utf8");
    this.child.stdout.on("data", (text: string) => this.onStdout(text));
    this.child.stderr.on("data", (text: string) => {
      this.stderrTail = (this.stderrTail + text).slice(-STDERR_KEEP);
    });
    // A dead agent must not crash the test run with EPIPE; pending requests fail on exit instead.
    this.child.stdin.on("error", () => undefined);
    this.exited = new Promise((resolve) => {
      this.child.on("error", (error) => {
        this.exitInfo = `spawn failed: ${error.message}`;
        this.failAll();
        resolve({ code: null, signal: null });
      });
      this.child.on("exit", (code, signal) => {
        this.exitInfo = `exited with code ${code} signal ${signal}`;
        this.failAll();
        resolve({ code, signal });
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** The last 64 KiB the agent wrote to stderr: attach it to failures. */
  get stderr(): string {
    return this.stderrTail;
  }

  request<T = unknown>(method: string, params?: unknown, timeoutMs = this.options.requestTimeoutMs ?? 30_000): Promise<T> {
    if (this.exitInfo) return Promise.reject(new Error(`${method}: agent ${this.exitInfo}`));
    const id = ++this.nextId;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`${method} timed out after ${timeoutMs} ms\n--- agent stderr ---\n${this.stderrTail.slice(-4000)}`));
      }, timeoutMs);
      this.pending.set(id, { method, resolve: resolve as (r: unknown) => void, reject, timer });
      this.send({ jsonrpc: "2.0", id, method, params });
    });
  }

  notify(method: string, params?: unknown): void {
    this.send({ jsonrpc: "2.0", method, params });
  }

  /** Kills the agent's whole process group (TERM, then KILL after graceMs) and waits for exit. */
  async close(graceMs = 2_000): Promise<void> {
    const pid = this.child.pid;
    if (pid === undefined) return;
    if (this.exitInfo) {
      // The leader is gone but its helpers may not be.
      signalGroup(pid, "SIGKILL");
      return;
    }
    this.child.stdin.end();
    signalGroup(pid, "SIGTERM");
    const timer = setTimeout(() => signalGroup(pid, "SIGKILL"), graceMs);
    await this.exited;
    clearTimeout(timer);
    // Helpers that ignored TERM outlive the leader; make sure nothing of the group survives.
    signalGroup(pid, "SIGKILL");
  }

  private send(message: object): void {
    const line = JSON.stringify(message);
    this.options.onFrame?.("out", line);
    this.child.stdin.write(line + "\n");
  }

  private onStdout(text: string): void {
    // Scan the chunk once and keep only the unfinished tail: cheap even for multi-MB frames.
    const data = this.buffer + text;
    let start = 0;
    let newline = data.indexOf("\n", start);
    while (newline !== -1) {
      const line = data.slice(start, newline);
      start = newline + 1;
      if (line.trim()) this.onLine(line);
      newline = data.indexOf("\n", start);
    }
    this.buffer = data.slice(start);
  }

  private onLine(line: string): void {
    this.options.onFrame?.("in", line);
    let message: Message;
    try {
      message = JSON.parse(line) as Message;
    } catch {
      return; // Not protocol (some agents print banners to stdout); onFrame already saw it.
    }
    if (message.method !== undefined) {
      if (message.id === undefined || message.id === null) this.options.onNotification?.(message.method, message.params);
      else void this.answer(message.id, message.method, message.params);
      return;
    }
    if (typeof message.id !== "number") return;
    const pending = this.pending.get(message.id);
    if (!pending) return;
    this.pending.delete(message.id);
    clearTimeout(pending.timer);
    if (message.error) pending.reject(new RpcError(message.error.code, `${pending.method}: ${message.error.message}`, message.error.data));
    else pending.resolve(message.result);
  }

  private async answer(id: number | string, method: string, params: unknown): Promise<void> {
    const handler = this.options.onRequest;
    if (!handler) {
      this.send({ jsonrpc: "2.0", id, error: { code: -32601, message: `method not found: ${method}` } });
      return;
    }
    try {
      const result = await handler(method, params);
      this.send({ jsonrpc: "2.0", id, result: result ?? null });
    } catch (error) {
      const rpc = error instanceof RpcError ? error : new RpcError(-32603, error instanceof Error ? error.message : String(error));
      this.send({ jsonrpc: "2.0", id, error: { code: rpc.code, message: rpc.message, data: rpc.data } });
    }
  }

  private failAll(): void {
    for (const [id, pending] of this.pending) {
      clearTimeout(pending.timer);
      pending.reject(new Error(`${pending.method}: agent ${this.exitInfo}\n--- agent stderr ---\n${this.stderrTail.slice(-4000)}`));
      this.pending.delete(id);
    }
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}
