/**
 * An ACP agent (stdio) for the byte-exact review tests in code-server. A prompt names what to do
 * and a request file (anywhere in the text: the client may put a note ahead of it):
 *
 *   bytes-disk <file>    for each entry an edit (or delete) tool call naming the path and a
 *                        permission request for it, then (allowed) the agent writes the exact
 *                        bytes itself (base64; null deletes), as Claude Code does
 *   bytes-editor <file>  for each entry fs/write_text_file with the entry's text, as Gemini CLI does
 *   bytes-hang <file>    as bytes-disk, but the last call never completes and the turn never ends
 *                        (the test kills the agent; its pid is written to <file>.pid first)
 *   anything else        replied to with the whole prompt received, the client's notes included
 */
import { rmSync, readFileSync, writeFileSync } from 'node:fs';
import * as acp from '@agentclientprotocol/sdk';
import { PERMISSION_OPTIONS, promptText, stdioStream, streamText, update } from '../../src/demo-agent/agentKit';

export interface BytesRequest {
  files: { path: string; bytes?: string | null; text?: string }[];
}

let nextSession = 1;

async function call(client: acp.AgentContext, sessionId: string, toolCallId: string, path: string, deletes: boolean): Promise<void> {
  await update(client, sessionId, { sessionUpdate: 'tool_call', toolCallId, title: `${deletes ? 'Delete' : 'Write'} ${path}`, kind: deletes ? 'delete' : 'edit', status: 'in_progress', locations: [{ path }] });
}

/** Whether the user allows the announced call; the round trip also means the client has seen the announcement. */
async function allowed(client: acp.AgentContext, sessionId: string, toolCallId: string): Promise<boolean> {
  const answer = await client.request(acp.methods.client.session.requestPermission, { sessionId, options: PERMISSION_OPTIONS, toolCall: { toolCallId } });
  return answer.outcome.outcome === 'selected' && answer.outcome.optionId.startsWith('allow');
}

async function onDisk(client: acp.AgentContext, sessionId: string, request: BytesRequest, hang: boolean): Promise<string> {
  for (const [index, file] of request.files.entries()) {
    const toolCallId = `disk-${Date.now()}-${index}`;
    const deletes = file.bytes === null;
    await call(client, sessionId, toolCallId, file.path, deletes);
    if (!(await allowed(client, sessionId, toolCallId))) {
      await update(client, sessionId, { sessionUpdate: 'tool_call_update', toolCallId, status: 'failed' });
      continue;
    }
    if (deletes) rmSync(file.path, { force: true });
    else writeFileSync(file.path, Buffer.from(file.bytes ?? '', 'base64'));
    if (hang && index === request.files.length - 1) return new Promise<never>(() => undefined);
    await update(client, sessionId, { sessionUpdate: 'tool_call_update', toolCallId, status: 'completed' });
  }
  return `Wrote ${request.files.length} files on disk.`;
}

async function throughEditor(client: acp.AgentContext, sessionId: string, request: BytesRequest): Promise<string> {
  for (const [index, file] of request.files.entries()) {
    const toolCallId = `editor-${Date.now()}-${index}`;
    await call(client, sessionId, toolCallId, file.path, false);
    await client.request(acp.methods.client.fs.writeTextFile, { sessionId, path: file.path, content: file.text ?? '' });
    await update(client, sessionId, { sessionUpdate: 'tool_call_update', toolCallId, status: 'completed' });
  }
  return `Wrote ${request.files.length} files through the editor.`;
}

async function answer(client: acp.AgentContext, sessionId: string, text: string): Promise<string> {
  // The client's notes may quote earlier requests (and follow the message with no space between): only the user's own counts.
  const asked = /\bbytes-(disk|editor|hang) (\S+?\.json)/.exec(text.replace(/\[Note from the editor: [^\]]*\]/g, ' '));
  if (!asked) return `Prompt: ${text}`;
  const [, action, file = ''] = asked;
  if (action === 'hang') writeFileSync(`${file}.pid`, String(process.pid));
  const request = JSON.parse(readFileSync(file, 'utf8')) as BytesRequest;
  return action === 'editor' ? throughEditor(client, sessionId, request) : onDisk(client, sessionId, request, action === 'hang');
}

acp.agent({ name: 'bytes-agent' })
  .onRequest(acp.methods.agent.initialize, () => ({
    protocolVersion: acp.PROTOCOL_VERSION,
    agentCapabilities: { loadSession: false, promptCapabilities: { image: false, audio: false, embeddedContext: false } },
    agentInfo: { name: 'bytes-agent', title: 'Bytes agent', version: '1.0.0' },
    authMethods: [],
  }))
  .onRequest(acp.methods.agent.session.new, () => ({ sessionId: `bytes-${nextSession++}` }))
  .onRequest(acp.methods.agent.session.prompt, async (ctx) => {
    const reply = await answer(ctx.client, ctx.params.sessionId, promptText(ctx.params.prompt));
    await streamText(ctx.client, ctx.params.sessionId, reply, { chunkSize: 4000 });
    return { stopReason: 'end_turn' as const };
  })
  .connect(stdioStream());
