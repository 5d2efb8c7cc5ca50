/**
 * The scripted agent, in memory, as an agent that also offers `session/fork` (as Claude Code
 * does): its initialize answer advertises fork, and a fork request is served as a new session
 * in the same folder (the fork starts without the earlier history, which the client shows
 * from its own copy of the thread). Lines are rewritten between the client and the agent.
 */
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { createInterface } from 'node:readline';
import type { AgentChannel, AgentStarter } from '../../src/acp/agentChannel';
import { InMemoryScriptedAgent } from './inMemoryAgent';

type Message = { id?: number | string; method?: string; params?: Record<string, unknown>; result?: Record<string, unknown> };

/** Calls `rewrite` on each NDJSON line from `from` and writes the result to `to`. */
function pipeLines(from: Readable, to: Writable, rewrite: (message: Message) => Message): void {
  const lines = createInterface({ input: from, crlfDelay: Infinity });
  lines.on('line', (line) => {
    let message: Message;
    try {
      message = JSON.parse(line) as Message;
    } catch {
      to.write(`${line}\n`);
      return;
    }
    to.write(`${JSON.stringify(rewrite(message))}\n`);
  });
  lines.on('close', () => to.end());
}

function forking(agent: InMemoryScriptedAgent): AgentChannel {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  let initializeId: Message['id'];
  pipeLines(stdin, agent.stdin, (message) => {
    if (message.method === 'initialize') initializeId = message.id;
    if (message.method !== 'session/fork') return message;
    return { ...message, method: 'session/new', params: { cwd: message.params?.cwd, mcpServers: message.params?.mcpServers ?? [] } };
  });
  pipeLines(agent.stdout, stdout, (message) => {
    if (message.id === undefined || message.id !== initializeId || !message.result) return message;
    const capabilities = (message.result.agentCapabilities ?? {}) as Record<string, Record<string, unknown>>;
    return { ...message, result: { ...message.result, agentCapabilities: { ...capabilities, sessionCapabilities: { ...capabilities.sessionCapabilities, fork: {} } } } };
  });
  return {
    pid: agent.pid,
    stdin,
    stdout,
    exited: agent.exited,
    get running() {
      return agent.running;
    },
    stderrTail: (lines) => agent.stderrTail(lines),
    onStderrLine: (listener) => agent.onStderrLine(listener),
    stop: () => agent.stop(),
    dispose: () => agent.dispose(),
  };
}

/** Starts every launch as the in-memory scripted agent with session/fork. */
export const startForkingScriptedAgent: AgentStarter = (launch) => forking(new InMemoryScriptedAgent(launch));
