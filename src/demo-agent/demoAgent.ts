import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { CancelFlags, PERMISSION_OPTIONS, promptText, sleep, stdioStream, streamText, update } from './agentKit';

/**
 * "Demo agent (offline)": a scripted ACP agent shipped with Tandem so the panel can be tried
 * with no account and no network. It streams a reply, shows a tool call and asks a permission.
 * It never changes a file.
 */

const sessions = new Map<string, { cwd: string; turns: number }>();
const cancels = new CancelFlags();
let nextSession = 1;

function listWorkspace(cwd: string): string[] {
  try {
    return readdirSync(cwd, { withFileTypes: true })
      .filter((entry) => !entry.name.startsWith('.'))
      .slice(0, 40)
      .map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name));
  } catch {
    return [];
  }
}

function reply(text: string, files: string[] | null): string {
  const listing = files === null
    ? 'You declined the listing, so I did not look at your files.'
    : files.length > 0
      ? `Your workspace has ${files.length} top-level entries, for example:\n\n${files.slice(0, 6).map((file) => `- \`${file}\``).join('\n')}`
      : 'Your workspace folder looks empty.';
  return [
    `**I'm Tandem's demo agent**: a scripted stand-in that runs offline, so you can try the panel before connecting a real agent.`,
    '',
    `You wrote: _${text.replace(/[_*`]/g, '')}_`,
    '',
    listing,
    '',
    'A real agent (Claude Code, Gemini CLI, Codex) is one click away in the agent picker above. Here is what a code block looks like:',
    '',
    '```ts',
    'const agent = await tandem.connect("claude-code");',
    'await agent.prompt("Explain this repository");',
    '```',
  ].join('\n');
}

const app = acp
  .agent({ name: 'tandem-demo-agent' })
  .onRequest(acp.methods.agent.initialize, () => ({
    protocolVersion: acp.PROTOCOL_VERSION,
    agentCapabilities: { loadSession: false, promptCapabilities: { image: false, audio: false, embeddedContext: false } },
    agentInfo: { name: 'tandem-demo-agent', title: 'Demo agent (offline)', version: '1.0.0' },
    authMethods: [],
  }))
  .onRequest(acp.methods.agent.session.new, (ctx) => {
    const sessionId = `demo-${nextSession++}`;
    sessions.set(sessionId, { cwd: ctx.params.cwd, turns: 0 });
    return { sessionId };
  })
  .onNotification(acp.methods.agent.session.cancel, (ctx) => cancels.cancel(ctx.params.sessionId))
  .onRequest(acp.methods.agent.session.prompt, async (ctx) => {
    const { sessionId } = ctx.params;
    const session = sessions.get(sessionId);
    if (!session) throw acp.RequestError.invalidParams(undefined, `Unknown session ${sessionId}`);
    session.turns++;
    const signal = cancels.begin(sessionId);
    const client = ctx.client;
    const text = promptText(ctx.params.prompt) || '(empty message)';

    await streamText(client, sessionId, 'The user wants a demo. I will look at the workspace (with permission) and answer.', { kind: 'agent_thought_chunk', chunkSize: 8, delayMs: 15, signal });
    const toolCallId = `list-${session.turns}`;
    await update(client, sessionId, {
      sessionUpdate: 'tool_call', toolCallId, title: 'List the files in the workspace folder', kind: 'search', status: 'pending',
      locations: [{ path: session.cwd }], rawInput: { path: session.cwd },
    });
    const answer = await client.request(acp.methods.client.session.requestPermission, {
      sessionId, options: PERMISSION_OPTIONS, toolCall: { toolCallId, title: 'List the files in the workspace folder', kind: 'search' },
    }, { cancellationSignal: signal });
    if (signal.aborted || answer.outcome.outcome === 'cancelled') return { stopReason: 'cancelled' as const };
    const allowed = answer.outcome.optionId.startsWith('allow');
    let files: string[] | null = null;
    if (allowed) {
      await update(client, sessionId, { sessionUpdate: 'tool_call_update', toolCallId, status: 'in_progress' });
      await sleep(150, signal);
      files = listWorkspace(session.cwd);
      await update(client, sessionId, {
        sessionUpdate: 'tool_call_update', toolCallId, status: 'completed',
        content: [{ type: 'content', content: { type: 'text', text: files.join('\n') || '(empty)' } }],
        locations: files.slice(0, 5).map((file) => ({ path: join(session.cwd, file) })),
      });
    } else {
      await update(client, sessionId, { sessionUpdate: 'tool_call_update', toolCallId, status: 'failed', content: [{ type: 'content', content: { type: 'text', text: 'Declined by the user.' } }] });
    }
    const finished = await streamText(client, sessionId, reply(text, files), { chunkSize: 6, delayMs: 12, signal });
    return { stopReason: finished ? ('end_turn' as const) : ('cancelled' as const) };
  });

app.connect(stdioStream());
