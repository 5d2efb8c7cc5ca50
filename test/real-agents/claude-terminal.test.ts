import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FrameStore } from '../../src/acp/frames';
import type { HostToWebview } from '../../src/contract/messages';
import type { TerminalStateView } from '../../src/terminals/terminalStates';
import { ChatPresenter } from '../../src/panel/chatPresenter';
import { silentLogger } from '../../src/util/logger';
import { startClaudeModelServer } from '../support/model-servers/claude';
import { claudeAgentSpec } from '../support/real-agents';
import { definitionFromSpec } from '../support/realAgentDefinitions';
import { folderScope } from '../../src/workspace/workspaceScope';

describe('real Claude Code (claude-agent-acp) running a command', () => {
  test('the Bash card shows the live output and exit code from the _meta terminal keys', { timeout: 180_000 }, async (t) => {
    const server = await startClaudeModelServer();
    const spec = claudeAgentSpec(server.url);
    const frames = new FrameStore();
    const posted: HostToWebview[] = [];
    // "default" asks before running a command (the test allows it); "auto" would consult a model-side classifier.
    const agent = { ...definitionFromSpec(spec), defaultMode: 'default' };
    const presenter = new ChatPresenter(() => [agent], spec.name, { workspace: () => folderScope(spec.cwd), trusted: true, frames, logger: silentLogger },
      (message) => posted.push(message),
      { showLog: () => undefined, showTraffic: () => undefined, openLink: () => undefined, rememberAgent: () => undefined });
    t.after(async () => {
      await presenter.currentSession.stopAgent();
      presenter.dispose();
      await server.close();
      spec.dispose();
    });
    await presenter.handle({ type: 'ready' });

    // Long enough to be seen running: a faster command may start and end within one batch to the panel.
    const command = "printf '\\033[32mgreen\\033[0m\\n'; sleep 0.5; echo second line; exit 3";
    server.enqueue({ toolUses: [{ name: 'Bash', input: { command, description: 'Print a coloured line and fail' } }] }, { text: 'The command failed with exit code 3.' });
    const session = presenter.currentSession;
    // Claude Code may ask before running a command: allow it, as a user would.
    const allowing = setInterval(() => {
      for (const entry of session.thread.snapshot()) {
        const option = entry.kind === 'toolCall' ? entry.tool.permission?.options.find((candidate) => candidate.kind === 'allow_once') : undefined;
        if (entry.kind === 'toolCall' && entry.tool.permission && option) session.answerPermission(entry.tool.permission.requestId, option.optionId);
      }
    }, 50);
    t.after(() => clearInterval(allowing));
    await presenter.sendPrompt('Run the command');
    clearInterval(allowing);

    const init = frames.frames().find((frame) => frame.direction === 'out' && frame.text.includes('"initialize"'));
    assert.match(init?.text ?? '', /"terminal_output":true/, 'display terminals are advertised');
    const card = session.thread.snapshot().find((entry) => entry.kind === 'toolCall' && entry.tool.toolKind === 'execute');
    assert.ok(card?.kind === 'toolCall', 'a Bash card');
    const terminalContent = card.tool.content.find((content) => content.type === 'terminal');
    assert.ok(terminalContent?.type === 'terminal', 'the card shows a terminal');
    const terminalId = terminalContent.terminalId;

    const view = session.terminalDisplays.view(terminalId);
    assert.equal(view?.origin, 'agent');
    assert.equal(view?.toolCallId, card.tool.toolCallId);
    assert.equal(view?.command, command);
    assert.equal(view?.exitCode, 3);
    assert.equal(view?.running, false);
    assert.match(session.terminalDisplays.output(terminalId), /green[\s\S]*second line/);

    // What the webview received: the terminal's state with the exit code, and its output.
    const states = posted.flatMap((message) => (message.type === 'terminalDeltas' ? message.changed : [])).filter((state: TerminalStateView) => state.terminalId === terminalId);
    assert.equal(states.at(-1)?.exitCode, 3);
    assert.ok(states.some((state) => state.running), 'it was shown running first');
    const output = posted.flatMap((message) => (message.type === 'terminalDeltas' ? message.output : [])).filter((chunk) => chunk.terminalId === terminalId).map((chunk) => chunk.data).join('');
    assert.match(output, /second line/);
    assert.equal(session.thread.lastAgentText(), 'The command failed with exit code 3.');
  });
});
