/**
 * An ACP agent (stdio) for kill tests: it works the way real agents do at every point where a
 * kill can land. From its start it has a process tree, as an adapter has the program it drives:
 * in its group a plain child and a grandchild through a shell; in sessions of their own (as
 * Claude Code runs every Bash command) a plain child and a grandchild through a shell; with
 * FAULT_AGENT_STUBBORN=1 a child that ignores SIGTERM in each, with FAULT_AGENT_SHARES_STDERR=1
 * one that writes to the agent's own stderr, as a driven program often does, and so holds that
 * pipe open. A prompt `work <json>` (see faultWork.ts) streams numbered chunks, runs a read tool
 * call, writes files (announced first, then written on the disk itself or through
 * fs/write_text_file) and asks a permission.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as acp from '@agentclientprotocol/sdk';
import { PERMISSION_OPTIONS, promptText, stdioStream, update } from '../../src/demo-agent/agentKit';
import { chunkText, type FaultWork } from './faultWork';

function startChildren(env: NodeJS.ProcessEnv): void {
  for (const ownSession of [false, true]) {
    spawn('sleep', ['1000'], { stdio: 'ignore', detached: ownSession });
    spawn('sh', ['-c', 'sleep 1000 & wait'], { stdio: 'ignore', detached: ownSession });
    if (env.FAULT_AGENT_STUBBORN === '1') spawn('sh', ['-c', 'trap "" TERM; exec sleep 1000'], { stdio: 'ignore', detached: ownSession });
  }
  if (env.FAULT_AGENT_SHARES_STDERR === '1') spawn('sleep', ['1000'], { stdio: ['ignore', 'ignore', 'inherit'] });
}

async function writeFile(client: acp.AgentContext, sessionId: string, file: FaultWork['files'][number], index: number, fsOffered: boolean): Promise<void> {
  const toolCallId = `write-${index}`;
  const oldText = existsSync(file.path) ? readFileSync(file.path, 'utf8') : null;
  await update(client, sessionId, { sessionUpdate: 'tool_call', toolCallId, title: `Write ${file.path}`, kind: 'edit', status: 'in_progress', locations: [{ path: file.path }], rawInput: { path: file.path } });
  if (file.via === 'fs' && fsOffered) await client.request(acp.methods.client.fs.writeTextFile, { sessionId, path: file.path, content: file.content });
  else writeFileSync(file.path, file.content);
  await update(client, sessionId, {
    sessionUpdate: 'tool_call_update', toolCallId, status: 'completed', content: [{ type: 'diff', path: file.path, oldText, newText: file.content }],
  });
}

async function work(client: acp.AgentContext, sessionId: string, plan: FaultWork, fsOffered: boolean): Promise<acp.StopReason> {
  for (let index = 0; index < plan.chunks; index++) {
    await update(client, sessionId, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: chunkText(index) } });
  }
  await update(client, sessionId, { sessionUpdate: 'tool_call', toolCallId: 'read-1', title: 'Read the plan', kind: 'read', status: 'in_progress' });
  await update(client, sessionId, { sessionUpdate: 'tool_call_update', toolCallId: 'read-1', status: 'completed' });
  for (const [index, file] of plan.files.entries()) await writeFile(client, sessionId, file, index, fsOffered);
  if (plan.permission) {
    await update(client, sessionId, { sessionUpdate: 'tool_call', toolCallId: 'ask-1', title: 'Run the tests', kind: 'execute', status: 'pending' });
    const answer = await client.request(acp.methods.client.session.requestPermission, { sessionId, options: PERMISSION_OPTIONS, toolCall: { toolCallId: 'ask-1' } });
    if (answer.outcome.outcome !== 'selected') return 'cancelled';
  }
  await update(client, sessionId, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'done' } });
  return 'end_turn';
}

startChildren(process.env);
let fsOffered = false;
let nextSession = 1;
const connection = acp.agent({ name: 'fault-agent' })
  .onRequest(acp.methods.agent.initialize, (ctx) => {
    fsOffered = ctx.params.clientCapabilities?.fs?.writeTextFile === true;
    return {
      protocolVersion: acp.PROTOCOL_VERSION,
      agentCapabilities: { loadSession: false, promptCapabilities: { image: false, audio: false, embeddedContext: false } },
      agentInfo: { name: 'fault-agent', title: 'Fault agent', version: '1.0.0' },
      authMethods: [],
    };
  })
  .onRequest(acp.methods.agent.session.new, () => ({ sessionId: `fault-${process.pid}-${nextSession++}` }))
  .onRequest(acp.methods.agent.session.prompt, async (ctx) => {
    const text = promptText(ctx.params.prompt);
    const plan = text.startsWith('work ') ? (JSON.parse(text.slice('work '.length)) as FaultWork) : { chunks: 1, files: [], permission: false };
    return { stopReason: await work(ctx.client, ctx.params.sessionId, plan, fsOffered) };
  })
  .connect(stdioStream());
// Like an adapter, it ends when its client goes; what it started is left to its group's end.
void connection.closed.then(() => process.exit(0));
