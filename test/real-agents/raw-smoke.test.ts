// Proves the real agents (Claude Code via claude-agent-acp, Gemini CLI) work offline against
// the scripted model servers, driven by the minimal raw NDJSON client: streamed text arrives
// as agent_message_chunk updates, and a scripted write tool use puts real bytes on disk.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, test } from "node:test";
import { startClaudeModelServer } from "../support/model-servers/claude";
import { startGeminiModelServer } from "../support/model-servers/gemini";
import type { ScriptedModelServer } from "../support/model-servers/script";
import { claudeAgentSpec, geminiAgentSpec, type AgentSpec } from "../support/real-agents";
import { RawNdjsonClient } from "../support/raw-ndjson-client";

const HELLO = "Hello from the scripted model, streamed in pieces.";
// "**subject**\ndescription" is the shape Gemini CLI renders every thought in; Claude passes it through.
const THINKING = "**Greeting**\nThe user wants a short hello.";
const TEST_TIMEOUT_MS = 60_000;

interface PermissionOption {
  optionId: string;
  kind: string;
}
interface PermissionRequest {
  options: PermissionOption[];
  toolCall: { toolCallId: string };
}
interface SessionUpdate {
  sessionUpdate: string;
  content?: { type: string; text?: string };
  used?: number;
}
interface PromptResult {
  stopReason: string;
  _meta?: { quota?: { token_count?: { input_tokens?: number } } };
}

interface AgentUnderTest {
  server: ScriptedModelServer;
  client: RawNdjsonClient;
  spec: AgentSpec;
  workspace: string;
  sessionId: string;
  initialize: { protocolVersion: number };
  updates: SessionUpdate[];
  permissions: PermissionRequest[];
  prompt(text: string): Promise<PromptResult>;
  /** Concatenated text of all updates of one kind, e.g. "agent_message_chunk". */
  textOf(kind: string): string;
  dispose(): Promise<void>;
}

type Kind = "claude" | "gemini";

/** Model server + agent + initialize (+ pre-session steps) + session/new in a fresh workspace. */
async function startAgent(kind: Kind): Promise<AgentUnderTest> {
  const server = kind === "claude" ? await startClaudeModelServer() : await startGeminiModelServer();
  // realpath: agents report canonical paths; a symlinked TMPDIR must not break comparisons.
  const workspace = realpathSync(mkdtempSync(path.join(os.tmpdir(), `tandem-ws-${kind}-`)));
  const spec = kind === "claude" ? claudeAgentSpec(server.url, { cwd: workspace }) : geminiAgentSpec(server.url, { cwd: workspace });
  const updates: SessionUpdate[] = [];
  const permissions: PermissionRequest[] = [];
  const client = RawNdjsonClient.spawn(spec, {
    requestTimeoutMs: 30_000,
    onNotification: (method, params) => {
      if (method === "session/update") updates.push((params as { update: SessionUpdate }).update);
    },
    onRequest: (method, params) => {
      if (method !== "session/request_permission") throw new Error(`unexpected agent request ${method}`);
      const request = params as PermissionRequest;
      permissions.push(request);
      const allow = request.options.find((o) => o.kind === "allow_once") ?? request.options.find((o) => o.kind.startsWith("allow"));
      assert.ok(allow, "the agent offered no allow option");
      return { outcome: { outcome: "selected", optionId: allow.optionId } };
    },
  });
  const dispose = async (): Promise<void> => {
    await client.close();
    await server.close();
    spec.dispose();
    rmSync(workspace, { recursive: true, force: true });
  };
  try {
    const initialize = await client.request<{ protocolVersion: number }>("initialize", {
      protocolVersion: 1,
      clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
    });
    for (const step of spec.preSession) await client.request(step.method, step.params);
    const { sessionId } = await client.request<{ sessionId: string }>("session/new", { cwd: workspace, mcpServers: [] });
    return {
      server,
      client,
      spec,
      workspace,
      sessionId,
      initialize,
      updates,
      permissions,
      prompt: (text) => client.request("session/prompt", { sessionId, prompt: [{ type: "text", text }] }),
      textOf: (kind) =>
        updates
          .filter((u) => u.sessionUpdate === kind && u.content?.type === "text")
          .map((u) => u.content?.text ?? "")
          .join(""),
      dispose,
    };
  } catch (error) {
    await dispose();
    throw error;
  }
}

/** Polls a condition every 10 ms, failing after timeoutMs. */
async function waitFor(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The offline peer must know every route the agent used. */
function assertNoUnknownRoutes(server: ScriptedModelServer): void {
  const unknown = server.requests.filter((r) => r.role === "unknown").map((r) => `${r.method} ${r.path}${r.search}`);
  assert.deepEqual(unknown, [], "requests to routes the scripted server does not know");
}

for (const kind of ["claude", "gemini"] as const) {
  describe(`real ${kind} agent, offline, raw NDJSON client`, () => {
    test("streams the scripted thinking and reply as session updates", { timeout: TEST_TIMEOUT_MS }, async () => {
      const agent = await startAgent(kind);
      try {
        assert.equal(agent.initialize.protocolVersion, 1);
        agent.server.enqueue({ thinking: THINKING, text: HELLO, chunkSize: 12 });
        const result = await agent.prompt("Say hello");
        assert.equal(result.stopReason, "end_turn");
        assert.equal(agent.textOf("agent_message_chunk"), HELLO);
        assert.equal(agent.textOf("agent_thought_chunk"), THINKING);
        const chunks = agent.updates.filter((u) => u.sessionUpdate === "agent_message_chunk");
        assert.ok(chunks.length >= 3, `expected the reply in several chunks, got ${chunks.length}`);
        // The scripted usage figures reach the client: Claude as usage_update, Gemini in the answer.
        if (kind === "claude") assert.ok(agent.updates.some((u) => u.sessionUpdate === "usage_update" && (u.used ?? 0) > 0));
        else assert.ok((result._meta?.quota?.token_count?.input_tokens ?? 0) > 0);
        // Exactly one request consumed the script; side calls (titles, routing) did not.
        const mains = agent.server.requests.filter((r) => r.role === "main");
        assert.equal(mains.length, 1);
        assert.equal(mains[0]?.turn?.text, HELLO);
        assert.equal(agent.server.pendingTurns, 0);
        assertNoUnknownRoutes(agent.server);
      } finally {
        await agent.dispose();
      }
    });

    test("session/cancel mid-stream ends the turn as cancelled and the next turn still works", { timeout: TEST_TIMEOUT_MS }, async () => {
      const agent = await startAgent(kind);
      try {
        const slow = "one two three four five six seven eight nine ten ".repeat(4);
        agent.server.enqueue({ text: slow, chunkSize: 5, delayMs: 40 }, { text: "Back again." });
        const turn = agent.prompt("Count slowly");
        await waitFor(() => agent.textOf("agent_message_chunk").length > 0, "the first streamed chunk");
        agent.client.notify("session/cancel", { sessionId: agent.sessionId });
        assert.equal((await turn).stopReason, "cancelled");
        const partial = agent.textOf("agent_message_chunk");
        assert.ok(slow.startsWith(partial) && partial.length < slow.length, `partial text: ${JSON.stringify(partial)}`);
        // The agent hung up on the model stream; the server stopped writing instead of finishing it.
        const cancelled = agent.server.requests.find((r) => r.role === "main");
        await waitFor(() => cancelled?.disconnected === true, "the server to see the disconnect");

        agent.updates.length = 0;
        const next = await agent.prompt("Go on");
        assert.equal(next.stopReason, "end_turn");
        assert.equal(agent.textOf("agent_message_chunk"), "Back again.");
        assert.equal(agent.server.pendingTurns, 0);
      } finally {
        await agent.dispose();
      }
    });

    test("a scripted write tool use creates the file on disk after permission", { timeout: TEST_TIMEOUT_MS }, async () => {
      const agent = await startAgent(kind);
      try {
        const target = path.join(agent.workspace, "notes", "hello.txt");
        const content = "first line\nsecond line: ünïcödé ✓\n";
        if (kind === "claude") {
          // Claude's default mode (auto) writes inside the cwd without asking; "default" asks.
          await agent.client.request("session/set_mode", { sessionId: agent.sessionId, modeId: "default" });
        }
        agent.server.enqueue(
          { text: "I'll write the file.", toolUses: [{ name: kind === "claude" ? "Write" : "write_file", input: { file_path: target, content } }] },
          { text: "The file is written." },
        );
        const result = await agent.prompt("Create notes/hello.txt");
        assert.equal(result.stopReason, "end_turn");
        assert.equal(readFileSync(target, "utf8"), content);

        assert.equal(agent.permissions.length, 1, "exactly one permission request");
        const optionIds = agent.permissions[0]?.options.map((o) => o.optionId);
        assert.deepEqual(optionIds, kind === "claude" ? ["allow-once", "allow-with-updates", "reject"] : ["proceed_always", "proceed_once", "cancel"]);
        assert.equal(agent.textOf("agent_message_chunk"), "I'll write the file.The file is written.");

        // The follow-up request carried the tool result and consumed the second turn.
        const mains = agent.server.requests.filter((r) => r.role === "main");
        assert.equal(mains.length, 2);
        const followUp = JSON.stringify(mains[1]?.body);
        assert.match(followUp, kind === "claude" ? /"tool_result"/ : /"functionResponse"/);
        assert.equal(agent.server.pendingTurns, 0);
        assertNoUnknownRoutes(agent.server);
      } finally {
        await agent.dispose();
      }
    });
  });
}
