import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { agentFamily, describeProgram, type AgentIdentity } from '../../src/permissions/projectPrograms';
import { ignoreProjectSettingsFor, listProjectPrograms } from '../../src/permissions/projectProgramSources';
import { tempWorkspace, type TestScope } from '../support/sessionBuilders';

function plant(t: TestScope, files: Record<string, string>): string {
  const folder = tempWorkspace(t);
  for (const [relative, text] of Object.entries(files)) {
    mkdirSync(dirname(join(folder, relative)), { recursive: true });
    writeFileSync(join(folder, relative), text);
  }
  return folder;
}

const hooks = (event: string, command: string) => ({ hooks: { [event]: [{ matcher: '', hooks: [{ type: 'command', command }] }] } });
/** What each program is and runs, as the question lists it, in file order. */
const listed = (agent: AgentIdentity, folder: string): string[] => listProjectPrograms(agent, folder).map(describeProgram);

const claude = { id: 'claude-code', command: 'claude-agent-acp' };
const gemini = { id: 'gemini', command: 'gemini', args: ['--acp'] };
const qwen = { id: 'qwen-code', command: 'qwen', args: ['--acp'] };
const opencode = { id: 'opencode', command: 'opencode', args: ['acp'] };
const codex = { id: 'codex', command: 'codex-acp' };

describe('programs a project defines, per agent', () => {
  test('agents are known by id, program or a package among the arguments; others have no list', () => {
    assert.equal(agentFamily({ id: 'mine', command: '/opt/bin/claude-agent-acp' }), 'claude');
    assert.equal(agentFamily({ id: 'g', command: 'npx', args: ['-y', '@google/gemini-cli', '--acp'] }), 'gemini');
    assert.equal(agentFamily(qwen), 'qwen');
    assert.equal(agentFamily(opencode), 'opencode');
    assert.equal(agentFamily(codex), 'codex');
    assert.equal(agentFamily({ id: 'goose', command: 'goose', args: ['acp'] }), null);
  });

  test('Claude Code: .mcp.json servers, hooks and command settings of both settings files, plugins, commands that run shell', (t) => {
    const folder = plant(t, {
      '.mcp.json': JSON.stringify({ mcpServers: { db: { command: 'node', args: ['db.js', 'a b'], env: { TOKEN: 'x' } }, web: { type: 'http', url: 'http://x' }, auth: { type: 'http', url: 'http://y', headersHelper: './h.sh' } } }),
      '.claude/settings.json': JSON.stringify({ ...hooks('SessionStart', './setup.sh'), statusLine: { type: 'command', command: './status.sh' }, apiKeyHelper: './key.sh', enabledPlugins: { 'x@market': true, 'off@market': false }, enableAllProjectMcpServers: true }),
      '.claude/settings.local.json': `{ // local\n ${JSON.stringify(hooks('UserPromptSubmit', 'touch prompted')).slice(1, -1)}, "awsAuthRefresh": "aws sso login" }`,
      '.claude/commands/deploy.md': 'Deploy with !`git push --force` now',
      '.claude/commands/plain.md': 'No shell here',
    });
    assert.deepEqual(listed(claude, folder), [
      'MCP server "db" [.mcp.json]: node db.js "a b" (with TOKEN set)',
      'MCP server "auth" headers helper [.mcp.json]: ./h.sh',
      'UserPromptSubmit hook [.claude/settings.local.json]: touch prompted',
      'awsAuthRefresh [.claude/settings.local.json]: aws sso login',
      'SessionStart hook [.claude/settings.json]: ./setup.sh',
      'statusLine.command [.claude/settings.json]: ./status.sh',
      'apiKeyHelper [.claude/settings.json]: ./key.sh',
      'plugin "x@market" [.claude/settings.json]: the plugin x@market (its hooks, MCP servers and commands)',
      'custom command .claude/commands/deploy.md (runs shell when you use it) [.claude/commands/deploy.md]: git push --force',
    ]);
  });

  test('Gemini CLI: .gemini/settings.json servers, hooks and tool commands, and TOML commands with !{...}', (t) => {
    const folder = plant(t, {
      '.gemini/settings.json': `{ "mcpServers": { "s": { "command": "python", "args": ["-m", "srv"] }, "remote": { "httpUrl": "http://x" } }, "hooks": { "enabled": true, "BeforeAgent": [ { "hooks": [ { "type": "command", "command": "./before.sh" } ] } ] }, "tools": { "discoveryCommand": "./discover.sh", "callCommand": "./call.sh" }, }`,
      '.gemini/commands/git/log.toml': 'prompt = """Summarise !{git log -5}"""',
      '.gemini/commands/hi.toml': 'prompt = "hello"',
      '.mcp.json': JSON.stringify({ mcpServers: { notRead: { command: 'x' } } }),
    });
    assert.deepEqual(listed(gemini, folder), [
      'MCP server "s" [.gemini/settings.json]: python -m srv',
      'BeforeAgent hook [.gemini/settings.json]: ./before.sh',
      'tools.discoveryCommand [.gemini/settings.json]: ./discover.sh',
      'tools.callCommand [.gemini/settings.json]: ./call.sh',
      'custom command .gemini/commands/git/log.toml (runs shell when you use it) [.gemini/commands/git/log.toml]: git log -5',
    ]);
  });

  test('Qwen Code: .qwen/settings.json servers, hooks and status line, and the project .mcp.json', (t) => {
    const folder = plant(t, {
      '.qwen/settings.json': JSON.stringify({ mcpServers: { q: { command: 'q-srv' } }, ...hooks('SessionStart', 'echo hi'), statusLine: { command: './line.sh' } }),
      '.mcp.json': JSON.stringify({ mcpServers: { shared: { command: 'shared-srv' } } }),
      '.gemini/settings.json': JSON.stringify(hooks('SessionStart', 'not-qwen')),
    });
    assert.deepEqual(listed(qwen, folder), [
      'MCP server "shared" [.mcp.json]: shared-srv',
      'MCP server "q" [.qwen/settings.json]: q-srv',
      'SessionStart hook [.qwen/settings.json]: echo hi',
      'statusLine.command [.qwen/settings.json]: ./line.sh',
    ]);
  });

  test('OpenCode: local MCP servers, plugins, formatters and language servers of every config file, plugin and tool files, commands with !`...`', (t) => {
    const folder = plant(t, {
      'opencode.json': JSON.stringify({ mcp: { local: { type: 'local', command: ['bun', 'x.ts'], environment: { K: 'v' } }, far: { type: 'remote', url: 'http://x' } }, plugin: ['opencode-evil'], formatter: { fmt: { command: ['./fmt', '$FILE'] } } }),
      '.opencode/opencode.jsonc': '{ "lsp": { "mine": { "command": ["./lsp"] } }, }',
      '.opencode/plugin/marker.js': 'export const P = async () => ({})',
      '.opencode/plugins/other.ts': 'export default {}',
      '.opencode/tool/t.ts': 'export default {}',
      '.opencode/command/c.md': 'run !`make test`',
    });
    assert.deepEqual(listed(opencode, folder), [
      'MCP server "local" [opencode.json]: bun x.ts (with K set)',
      'plugin "opencode-evil" [opencode.json]: loads opencode-evil as code',
      'formatter "fmt" [opencode.json]: ./fmt "$FILE"',
      'language server "mine" [.opencode/opencode.jsonc]: ./lsp',
      'plugin .opencode/plugin/marker.js [.opencode/plugin/marker.js]: loads .opencode/plugin/marker.js as code, with your permissions',
      'plugin .opencode/plugins/other.ts [.opencode/plugins/other.ts]: loads .opencode/plugins/other.ts as code, with your permissions',
      'custom tool .opencode/tool/t.ts [.opencode/tool/t.ts]: loads .opencode/tool/t.ts as code, with your permissions',
      'custom command .opencode/command/c.md (runs shell when you use it) [.opencode/command/c.md]: make test',
    ]);
  });

  test('Codex: a project .codex/config.toml that names programs', (t) => {
    const folder = plant(t, { '.codex/config.toml': 'model = "x"\n[mcp_servers.evil]\ncommand = "sh"\nargs = ["-c", "id"]\n' });
    assert.deepEqual(listed(codex, folder), ['Codex project configuration [.codex/config.toml]: [mcp_servers.evil] | command = "sh" | args = ["-c", "id"]']);
    assert.deepEqual(listed(codex, plant(t, { '.codex/config.toml': 'model = "x"\n' })), []);
  });

  test('what is shown hides no credential and no control character', (t) => {
    const folder = plant(t, { '.claude/settings.json': JSON.stringify(hooks('SessionStart', 'curl -H "token: ghp_abcdefghijklmnopqrstuvwxyz0123456789" x\u001b[2K\u202eok')) });
    const [line] = listed(claude, folder);
    assert.equal(line, 'SessionStart hook [.claude/settings.json]: curl -H "token: «redacted»" x⟨U+001B⟩[2K⟨U+202E⟩ok');
  });

  test('switches to ignore project settings where the agent has one', () => {
    assert.deepEqual(ignoreProjectSettingsFor(claude)?.sessionMeta, { claudeCode: { options: { settingSources: ['user'], strictMcpConfig: true } } });
    assert.deepEqual(ignoreProjectSettingsFor(gemini)?.env, { GEMINI_CLI_TRUST_WORKSPACE: 'false' });
    assert.deepEqual(ignoreProjectSettingsFor(opencode)?.env, { OPENCODE_DISABLE_PROJECT_CONFIG: '1' });
    assert.equal(ignoreProjectSettingsFor(qwen), null);
    assert.equal(ignoreProjectSettingsFor(codex), null);
  });
});
