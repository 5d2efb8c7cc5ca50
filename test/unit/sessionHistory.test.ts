import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseMcpServers, serversForAgent } from '../../src/agents/mcpServers';
import type { SessionController } from '../../src/conversation/sessionController';
import { scriptedEnvironment, scriptedSession, type TestScope } from '../support/sessionBuilders';

/** Sessions of one test share a workspace, where the scripted agent keeps its sessions. */
function workspaceSessions(t: TestScope): () => SessionController {
  const environment = scriptedEnvironment(t);
  return () => scriptedSession(t, { environment });
}

function texts(session: SessionController): string[] {
  return session.thread.snapshot().flatMap((entry) => (entry.kind === 'user' || entry.kind === 'agentMessage' ? [`${entry.kind}: ${entry.text}`] : []));
}

describe('earlier sessions', () => {
  test('list pages through the agent\'s sessions; load replays one into a fresh thread', async (t) => {
    const controller = workspaceSessions(t);
    const first = controller();
    await first.prompt('echo the first session');
    const firstId = first.currentSessionId;
    await first.close();
    const second = controller();
    await second.prompt('echo the second session');
    await second.close();
    const third = controller();
    await third.prompt('echo the third session');

    const listed: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 10; page++) {
      const response = await third.listAgentSessions(cursor);
      listed.push(...response.sessions.map((session) => session.sessionId));
      cursor = response.nextCursor ?? null;
      if (!cursor) break;
    }
    assert.equal(listed.length, 3, 'all three sessions over two pages');
    assert.ok(firstId && listed.includes(firstId));

    const reopened = controller();
    assert.ok(reopened.history.load === false, 'unknown before the agent started');
    assert.ok(firstId && (await reopened.openExisting({ kind: 'load', sessionId: firstId })));
    assert.ok(reopened.history.load && reopened.history.resume && reopened.history.list);
    assert.deepEqual(texts(reopened), ['user: echo the first session', 'agentMessage: You said: the first session']);
    await reopened.prompt('echo continued');
    assert.equal(reopened.thread.lastAgentText(), 'You said: continued');
    assert.equal(reopened.currentSessionId, firstId);
  });

  test('resume reconnects without replay; delete removes a session from the list', async (t) => {
    const controller = workspaceSessions(t);
    const session = controller();
    await session.prompt('echo keep me');
    const id = session.currentSessionId;
    assert.ok(id);
    const resumed = controller();
    assert.ok(await resumed.openExisting({ kind: 'resume', sessionId: id }));
    assert.deepEqual(texts(resumed), [], 'resume replays nothing: Tandem shows what it kept');
    await resumed.prompt('echo after resume');
    assert.equal(resumed.thread.lastAgentText(), 'You said: after resume');
    await resumed.deleteAgentSession(id);
    const listed = await resumed.listAgentSessions();
    assert.ok(!listed.sessions.some((candidate) => candidate.sessionId === id));
  });
});

describe('MCP servers', () => {
  test('settings and .vscode/mcp.json entries become session/new servers the agent supports', async (t) => {
    const fromSettings = parseMcpServers({ files: { command: 'mcp-files', args: ['--root', '.'], env: { TOKEN: 'x' } }, docs: { type: 'http', url: 'http://127.0.0.1:9/mcp' } }, 'tandem.mcpServers');
    const fromVscode = parseMcpServers({ legacy: { type: 'sse', url: 'http://127.0.0.1:9/sse' }, prompted: { command: 'x', env: { KEY: '${input:key}' } }, broken: { args: [] } }, '.vscode/mcp.json');
    assert.equal(fromVscode.skipped.length, 2);
    assert.match(fromVscode.skipped[0] ?? '', /prompted .*\$\{input/);
    const servers = [...fromSettings.choices, ...fromVscode.choices];
    const session = scriptedSession(t, { mcpServers: () => servers });
    await session.prompt('mcp');
    assert.equal(session.thread.lastAgentText(), 'MCP servers: files:stdio, docs:http');
    const notices = session.thread.snapshot().filter((entry) => entry.kind === 'notice').map((entry) => (entry.kind === 'notice' ? entry.text : ''));
    assert.ok(notices.some((text) => /legacy .*sse server and this agent only supports stdio, http/.test(text)));
  });

  test('an agent without http support gets only stdio servers', () => {
    const { choices } = parseMcpServers({ a: { command: 'a' }, b: { url: 'http://127.0.0.1:9' } }, 'test');
    assert.deepEqual(serversForAgent(choices, {}).servers.map((server) => server.name), ['a']);
  });
});
