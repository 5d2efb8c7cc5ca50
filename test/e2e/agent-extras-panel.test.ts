// What agents add on top of ACP, as the panel's real webview bundle draws it in Chromium with
// the extension's CSP: a compaction entry, a steered message, a subagent's work folded under
// its card, plan limits by the meter, Steer on a queued message, and a failed start's banner.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ThreadEntry } from '../../src/thread/entries';
import { conversationView, panelState, toolEntry } from '../support/panelFixtures';
import { panelPerTest } from '../support/panelPerTest';
import { screenshot } from '../support/workbench';

const panel = panelPerTest();

const conversation = conversationView;

const subagentEntries: ThreadEntry[] = [
  { kind: 'user', id: 'u1', text: 'fix the parser' },
  toolEntry('t1', { toolCallId: 'task-1', title: 'Agent: fix the parser', toolKind: 'think', status: 'in_progress' }),
  toolEntry('t2', { toolCallId: 'sub-read', title: 'Read parser.ts', toolKind: 'read', status: 'completed', parentToolCallId: 'task-1' }),
  { kind: 'agentMessage', id: 'm1', text: 'The subagent found the bug.', parentToolCallId: 'task-1' },
  toolEntry('t3', { toolCallId: 'sub-edit', title: 'Edit parser.ts', toolKind: 'edit', status: 'completed', parentToolCallId: 'task-1', content: [{ type: 'diff', path: '/w/parser.ts', oldText: 'a', newText: 'b' }] }),
  { kind: 'agentMessage', id: 'm2', text: 'The subagent is done.' },
];

describe('what agents add on top of ACP, in the panel', () => {
  test("a subagent's work is folded under its card with what it changed, and stays there when the card is drawn again", async (t) => {
    const harness = await panel(t);
    await harness.post({ type: 'snapshot', state: panelState(subagentEntries) });
    const parent = harness.page.locator('.entry', { has: harness.page.locator('article[data-tool-call-id="task-1"]') }).first();
    const nest = parent.locator('details.subagent-work');
    await nest.waitFor({ state: 'attached' });
    assert.equal(await nest.evaluate((node) => (node as HTMLDetailsElement).open), false, 'collapsed by default');
    assert.equal((await nest.locator('summary').innerText()).trim(), 'Subagent: 2 tool calls, 1 message, 1 file changed');
    assert.equal(await nest.locator('article.tool-card').count(), 2, "the subagent's cards are inside");
    assert.match(await nest.locator('.subagent-body').evaluate((node) => node.textContent ?? ''), /The subagent found the bug\./);
    // The main answer is not part of it.
    assert.equal(await harness.page.locator('#thread > .thread-block > .agent-message').last().innerText(), 'The subagent is done.');
    await nest.locator('summary').click();
    await screenshot(harness.page, 'agent-extras-subagent');
    await harness.post({ type: 'threadDeltas', deltas: [{ type: 'entryUpdated', entry: toolEntry('t1', { toolCallId: 'task-1', title: 'Agent: fix the parser', toolKind: 'think', status: 'completed' }) }] });
    await harness.page.locator('article[data-tool-call-id="task-1"].status-completed').waitFor();
    assert.equal(await harness.page.locator('details.subagent-work article.tool-card').count(), 2, 'the nest moved to the redrawn card');
    await harness.post({ type: 'threadDeltas', deltas: [{ type: 'entryAdded', entry: toolEntry('t4', { toolCallId: 'sub-write', title: 'Write test.ts', toolKind: 'edit', status: 'completed', parentToolCallId: 'task-1', content: [{ type: 'diff', path: '/w/test.ts', oldText: null, newText: 'x' }] }) }] });
    await harness.page.locator('details.subagent-work summary', { hasText: '3 tool calls, 1 message, 2 files changed' }).waitFor({ timeout: 5_000 });
  });

  test('a compaction, a steered message, plan limits by the meter, and Steer on a queued message', async (t) => {
    const harness = await panel(t);
    await harness.post({ type: 'snapshot', state: panelState([
      { kind: 'user', id: 'u1', text: 'go' },
      { kind: 'compaction', id: 'c1', compaction: { compactionId: 'k', status: 'completed', tokensBefore: 150_000, tokensAfter: 12_000, summary: 'We fixed the parser.', error: null } },
      { kind: 'user', id: 'u2', text: 'also the tests', steered: 'injected' },
    ], { turn: { running: true }, queue: { items: [{ id: 'q1', text: 'and the docs', mentions: [], images: [] }], paused: false, steerable: true } }) });
    const compaction = harness.page.locator('.compaction');
    await compaction.waitFor();
    assert.match(await compaction.innerText(), /Context compacted: 150K tokens -> 12K/);
    await compaction.locator('summary').click();
    assert.match(await compaction.innerText(), /We fixed the parser\./);
    assert.match(await harness.page.locator('.user-message', { hasText: 'also the tests' }).innerText(), /Steered into the running turn/);

    await harness.page.locator('#prompt-queue').getByRole('button', { name: 'Steer', exact: true }).click();
    assert.deepEqual(harness.sent.filter((message) => message.type === 'queueAction'), [{ type: 'queueAction', action: 'steer', id: 'q1' }]);
    await harness.post({ type: 'queueChanged', queue: { items: [{ id: 'q1', text: 'and the docs', mentions: [], images: [] }], paused: false, steerable: false } });
    await harness.page.locator('#prompt-queue').getByRole('button', { name: 'Steer', exact: true }).waitFor({ state: 'detached', timeout: 5_000 });

    const limits = harness.page.locator('#rate-limits');
    assert.equal(await limits.isHidden(), true, 'no limits reported, none shown');
    const resetsAt = Date.now() + 3_600_000;
    await harness.post({ type: 'conversationChanged', conversation: conversation({
      usage: { kind: 'context', used: 20_000, size: 200_000, percent: 10, level: 'normal', cost: null },
      rateLimits: [{ window: 'five_hour', status: 'allowed_warning', percent: 82, resetsAt }, { window: 'seven_day', status: 'allowed', percent: 30, resetsAt: resetsAt + 86_400_000 * 3 }],
    }) });
    await limits.waitFor({ state: 'visible', timeout: 5_000 });
    assert.match(await limits.innerText(), /82%\s*30%/);
    // An hour from now is tomorrow in the last hour of the day: the reset then shows its date as well.
    const resetsToday = new Date().toDateString() === new Date(resetsAt).toDateString();
    assert.match(await limits.locator('[data-window="five_hour"]').getAttribute('title') ?? '',
      resetsToday ? /^5-hour limit: 82% used, resets \d\d:\d\d/ : /^5-hour limit: 82% used, resets [A-Z][a-z]{2}, [A-Z][a-z]{2} \d{1,2} \d\d:\d\d/);
    assert.match(await limits.locator('[data-window="seven_day"]').getAttribute('title') ?? '', /^Weekly limit: 30% used, resets [A-Z][a-z]{2}, /);
    await screenshot(harness.page, 'agent-extras-compaction-limits');
  });

  test('a start in progress shows its stages; a failed one its sentence, the log folded, and Copy report', async (t) => {
    const harness = await panel(t);
    const stages = (states: string[]) => (['spawned', 'initialized', 'signedIn', 'sessionReady'] as const).map((stage, i) => ({ stage, state: states[i] as 'done', ms: states[i] === 'waiting' ? null : 1200 }));
    await harness.post({ type: 'snapshot', state: panelState([], { connection: { phase: 'starting', message: 'Starting Claude Code…', agentName: 'Claude Code', startup: { stages: stages(['done', 'running', 'waiting', 'waiting']), summary: null, stderrTail: [], report: null } } }) });
    const banner = harness.page.locator('#connection-banner');
    await banner.waitFor({ state: 'visible' });
    assert.match(await banner.innerText(), /Starting Claude Code…[\s\S]*Started the program[\s\S]*Initialize answered/);
    assert.equal(await banner.locator('.stage-running').count(), 1);
    const colours = () => banner.evaluate((element) => {
      const probe = document.body.appendChild(Object.assign(document.createElement('div'), { style: 'border: 1px solid var(--card-border); background: var(--card-bg)' }));
      const card = { border: getComputedStyle(probe).borderTopColor, background: getComputedStyle(probe).backgroundColor };
      probe.remove();
      const style = getComputedStyle(element);
      return { border: style.borderTopColor, background: style.backgroundColor, card };
    });
    const starting = await colours();
    assert.deepEqual({ border: starting.border, background: starting.background }, starting.card, 'a start in progress is drawn as a card, not as an error');
    await screenshot(harness.page, 'agent-extras-starting');
    const sentence = 'Claude Code did not answer `initialize` within 30 s; Tandem stopped it.';
    const log = Array.from({ length: 10 }, (_, i) => `log line ${i + 1}`);
    await harness.post({ type: 'connectionChanged', connection: { phase: 'failed', message: sentence, agentName: 'Claude Code', startup: { stages: stages(['done', 'stalled', 'waiting', 'waiting']), summary: sentence, stderrTail: log, report: 'REPORT TEXT' } } });
    await banner.locator('.startup-details').waitFor();
    const failed = await colours();
    assert.notEqual(failed.border, starting.border, 'a failed start is drawn in the error colours');
    const text = await banner.innerText();
    assert.match(text, /did not answer initialize within 30 s; Tandem stopped it\./);
    assert.match(text, /Last log line: log line 10 \(10 lines\)/);
    assert.ok(!text.includes('log line 3'), 'the rest of the log is folded');
    await screenshot(harness.page, 'agent-extras-failed-start');
    await banner.locator('vscode-button', { hasText: 'Copy report' }).click();
    assert.deepEqual(harness.sent.filter((message) => message.type === 'copyText'), [{ type: 'copyText', text: 'REPORT TEXT' }]);
    await banner.locator('.startup-details summary').click();
    assert.match(await banner.innerText(), /log line 3/);
  });

  test('a missing agent: the banner offers its install command, Send waits with the reason, the picker marks it', async (t) => {
    const harness = await panel(t);
    const sentence = 'Codex is not installed: "codex-acp" was not found. Install it with `npm install -g @agentclientprotocol/codex-acp`.';
    await harness.post({ type: 'snapshot', state: panelState([], {
      agents: [{ id: 'scripted', label: 'Scripted agent', description: 'test', installed: true }, { id: 'codex', label: 'Codex', description: 'OpenAI', installed: false }],
      selectedAgentId: 'codex',
      connection: { phase: 'failed', message: sentence, agentName: 'Codex', notInstalled: { installCommand: 'npm install -g @agentclientprotocol/codex-acp' } },
    }) });
    const banner = harness.page.locator('#connection-banner');
    await banner.locator('vscode-button', { hasText: 'Copy install command' }).click();
    assert.deepEqual(harness.sent.filter((message) => message.type === 'copyText'), [{ type: 'copyText', text: 'npm install -g @agentclientprotocol/codex-acp' }]);
    assert.deepEqual(await harness.page.locator('#agent-picker vscode-option').allTextContents(), ['Scripted agent', 'Codex (not installed)']);
    const send = harness.page.locator('#send-button');
    assert.equal(await send.getAttribute('aria-disabled'), 'true');
    assert.match(await send.getAttribute('title') ?? '', /Codex is not installed/);
    await harness.page.locator('#composer-input textarea').fill('hello');
    await harness.page.locator('#composer-input textarea').press('Enter');
    assert.deepEqual(harness.sent.filter((message) => message.type === 'sendPrompt'), [], 'nothing goes to an agent that cannot start');
    assert.equal(await harness.page.locator('#composer-input textarea').inputValue(), 'hello', 'what was typed stays');
    await screenshot(harness.page, 'agent-extras-not-installed');
    await harness.post({ type: 'connectionChanged', connection: { phase: 'ready', message: null, agentName: 'Codex' } });
    await harness.page.locator('#send-button:not([disabled])').waitFor({ timeout: 5_000 });
  });
});
