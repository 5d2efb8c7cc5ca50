/**
 * An ACP agent (stdio) that writes files through the client, as agents that use `fs/*` do: for
 * a prompt naming a batch file (`write-batch /tmp/.../batch.json`, anywhere in the text, since
 * the client may put a note ahead of it), it announces an edit tool call per file, sends
 * `fs/write_text_file` with the content the batch gives, and completes the call.
 */
import { readFileSync } from 'node:fs';
import * as acp from '@agentclientprotocol/sdk';
import { promptText, stdioStream, streamText, update } from '../../../src/demo-agent/agentKit';

export interface WriteBatch {
  files: { path: string; content: string }[];
}

let nextSession = 1;

async function writeBatch(client: acp.AgentContext, sessionId: string, batchFile: string): Promise<string> {
  const batch = JSON.parse(readFileSync(batchFile, 'utf8')) as WriteBatch;
  let failed = 0;
  for (const [index, file] of batch.files.entries()) {
    const toolCallId = `write-${index}`;
    await update(client, sessionId, { sessionUpdate: 'tool_call', toolCallId, title: `Write ${file.path}`, kind: 'edit', status: 'in_progress', locations: [{ path: file.path }] });
    try {
      await client.request(acp.methods.client.fs.writeTextFile, { sessionId, path: file.path, content: file.content });
      await update(client, sessionId, { sessionUpdate: 'tool_call_update', toolCallId, status: 'completed' });
    } catch (error) {
      failed++;
      const text = error instanceof Error ? error.message : String(error);
      await update(client, sessionId, { sessionUpdate: 'tool_call_update', toolCallId, status: 'failed', content: [{ type: 'content', content: { type: 'text', text } }] });
    }
  }
  return `Wrote ${batch.files.length - failed} of ${batch.files.length} files.`;
}

acp.agent({ name: 'stress-writer' })
  .onRequest(acp.methods.agent.initialize, () => ({
    protocolVersion: acp.PROTOCOL_VERSION,
    agentCapabilities: { loadSession: false, promptCapabilities: { image: false, audio: false, embeddedContext: false } },
    agentInfo: { name: 'stress-writer', title: 'Stress writer', version: '1.0.0' },
    authMethods: [],
  }))
  .onRequest(acp.methods.agent.session.new, () => ({ sessionId: `stress-${nextSession++}` }))
  .onRequest(acp.methods.agent.session.prompt, async (ctx) => {
    const batchFile = /write-batch (\S+)/.exec(promptText(ctx.params.prompt))?.[1];
    const reply = batchFile ? await writeBatch(ctx.client, ctx.params.sessionId, batchFile) : 'Send write-batch <file>.';
    await streamText(ctx.client, ctx.params.sessionId, reply, { chunkSize: 200 });
    return { stopReason: 'end_turn' as const };
  })
  .connect(stdioStream());
