// The conversation controls against the real agents (scripted model servers on 127.0.0.1), with
// the panel's real webview bundle in Chromium wired to Tandem's presenter: what the user sees
// and clicks, and what reaches the agent and the disk.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { FrameStore } from '../../src/acp/frames';
import { ChatPresenter } from '../../src/panel/chatPresenter';
import { silentLogger } from '../../src/util/logger';
import { startClaudeModelServer } from '../support/model-servers/claude';
import { startGeminiModelServer } from '../support/model-servers/gemini';
import type { ScriptedModelServer } from '../support/model-servers/script';
import { openPanel, type PanelHarness } from '../support/panelHarness';
import { claudeAgentSpec, geminiAgentSpec, type AgentSpec } from '../support/real-agents';
import { definitionFromSpec } from '../support/realAgentDefinitions';
import { screenshot } from '../support/workbench';
import { folderScope } from '../../src/workspace/workspaceScope';

interface Setup {
  harness: PanelHarness;
  presenter: ChatPresenter;
  frames: FrameStore;
  spec: AgentSpec;
  model: ScriptedModelServer;
}

async function setUp(t: { after(fn: () => unknown): void }, agent: 'claude' | 'gemini'): Promise<Setup> {
  const model = agent === 'claude' ? await startClaudeModelServer() : await startGeminiModelServer();
  const spec = agent === 'claude' ? claudeAgentSpec(model.url) : geminiAgentSpec(model.url);
  const frames = new FrameStore();
  const harness = await openPanel({ viewport: { width: 560, height: 900 } });
  let presenter: ChatPresenter | null = null;
  const post = harness.connect(() => presenter as ChatPresenter);
  presenter = new ChatPresenter(() => [definitionFromSpec(spec)], spec.name, { workspace: () => folderScope(spec.cwd), trusted: true, frames, logger: silentLogger }, post,
    { showLog: () => undefined, showTraffic: () => undefined, openLink: () => undefined, rememberAgent: () => undefined });
  const created = presenter;
  t.after(async () => {
    await harness.close();
    await created.currentSession.stopAgent();
    created.dispose();
    await model.close();
    spec.dispose();
  });
  await harness.page.locator('.connection-status.phase-ready').waitFor({ timeout: 60_000 });
  return { harness, presenter: created, frames, spec, model };
}

async function send(harness: PanelHarness, text: string): Promise<void> {
  const input = harness.page.locator('#composer-input textarea');
  await input.fill(text);
  await input.press('Enter');
}

async function turnEnded(harness: PanelHarness, count: number): Promise<string | null> {
  const marker = harness.page.locator('.turn-ended').nth(count - 1);
  await marker.waitFor({ state: 'attached', timeout: 90_000 });
  return marker.getAttribute('data-stop-reason');
}

describe('real Claude Code: config options, a permission in its card, the usage meter', () => {
  test('the pickers render; mode "default" makes a Write ask in its card; Reject leaves the disk unchanged; usage moves the meter with cost', { timeout: 240_000 }, async (t) => {
    const { harness, frames, spec, model } = await setUp(t, 'claude');
    const mode = harness.page.locator('select[data-option-id="mode"]');
    await mode.waitFor({ timeout: 30_000 });
    assert.equal(await mode.inputValue(), 'auto', 'Claude starts in auto');
    const order = await harness.page.locator('#config-pickers select').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-category')));
    assert.deepEqual(order.slice(0, 3), ['mode', 'model', 'thought_level'], 'mode, model and effort lead');

    await mode.selectOption('default');
    await harness.page.locator('select[data-option-id="mode"]:not([aria-busy])').waitFor({ timeout: 30_000 });
    assert.equal(await harness.page.locator('select[data-option-id="mode"]').inputValue(), 'default');
    assert.ok(frames.frames().some((frame) => frame.direction === 'out' && frame.text.includes('"session/set_config_option"') && frame.text.includes('"default"')));

    const target = join(spec.cwd, 'rejected.md');
    model.enqueue({ toolUses: [{ name: 'Write', input: { file_path: target, content: '# should not exist\n' } }] }, { text: 'The write was rejected.' });
    await send(harness, 'Create rejected.md');
    const card = harness.page.locator('.tool-card', { has: harness.page.locator('.permission-options') });
    await card.waitFor({ timeout: 90_000 });
    assert.match(await card.locator('.permission-prompt').innerText(), /rejected\.md/, 'the prompt names the file');
    assert.ok(await card.locator('.tool-diff').count() >= 1, 'the diff is in the same card');
    await screenshot(harness.page, 'real-claude-permission');
    const reject = card.locator('.permission-options vscode-button[title*="reject"]').first();
    await reject.click();
    assert.equal(await turnEnded(harness, 1), 'end_turn');
    assert.equal(existsSync(target), false, 'nothing was written');
    const answer = frames.frames().find((frame) => frame.direction === 'out' && frame.text.includes('"outcome":"selected"'));
    assert.match(answer?.text ?? '', /"optionId":"reject"/, 'the agent\'s own reject id was sent');

    const meter = harness.page.locator('#usage-meter.usage-context');
    await meter.waitFor({ timeout: 30_000 });
    const first = Number(await meter.getAttribute('aria-valuenow'));
    assert.match(await meter.getAttribute('title') ?? '', /tokens used .* Cost so far: \$/, 'cost is shown when sent');
    const usedBefore = Number(/([\d,]+) of/.exec(await meter.getAttribute('title') ?? '')?.[1]?.replace(/,/g, ''));
    model.enqueue({ text: 'x'.repeat(6000) });
    await send(harness, 'Write a long answer');
    assert.equal(await turnEnded(harness, 2), 'end_turn');
    await harness.page.waitForFunction((before) => {
      const title = document.querySelector('#usage-meter')?.getAttribute('title') ?? '';
      const used = Number(/([\d,]+) of/.exec(title)?.[1]?.replace(/,/g, ''));
      return used > before;
    }, usedBefore, { timeout: 30_000 });
    assert.ok(Number(await meter.getAttribute('aria-valuenow')) >= first);
    await screenshot(harness.page, 'real-claude-meter');
  });
});

describe('real Gemini CLI: legacy modes and models, its permission ids', () => {
  test('mode and model pickers from the legacy fields; set_model reaches the model server; proceed_once is honoured', { timeout: 240_000 }, async (t) => {
    const { harness, frames, spec, model } = await setUp(t, 'gemini');
    const modes = harness.page.locator('select[data-option-id="legacy:mode"]');
    const models = harness.page.locator('select[data-option-id="legacy:model"]');
    await models.waitFor({ timeout: 30_000 });
    assert.equal(await modes.inputValue(), 'default');
    const modelChoices = await models.locator('option').evaluateAll((nodes) => nodes.map((node) => (node as HTMLOptionElement).value));
    assert.ok(modelChoices.includes('gemini-2.5-pro'), modelChoices.join(', '));

    await models.selectOption('gemini-2.5-pro');
    await harness.page.locator('select[data-option-id="legacy:model"]:not([aria-busy])').waitFor({ timeout: 30_000 });
    assert.ok(frames.frames().some((frame) => frame.direction === 'out' && frame.text.includes('"session/set_model"') && frame.text.includes('gemini-2.5-pro')));
    model.enqueue({ text: 'Answered by the chosen model.' });
    await send(harness, 'Which model?');
    assert.equal(await turnEnded(harness, 1), 'end_turn');
    const main = model.requests.filter((request) => request.role === 'main').at(-1);
    assert.match(main?.path ?? '', /gemini-2\.5-pro/, 'the next turn ran on the model the user picked');
    const meter = harness.page.locator('#usage-meter.usage-turn');
    await meter.waitFor({ timeout: 10_000 });
    assert.match(await meter.innerText(), /tokens last turn/, 'no usage_update: the per-turn count, no percentage');

    const target = join(spec.cwd, 'allowed.txt');
    model.enqueue({ toolUses: [{ name: 'write_file', input: { file_path: target, content: 'allowed\n' } }] }, { text: 'Written.' });
    await send(harness, 'Write allowed.txt');
    const card = harness.page.locator('.tool-card', { has: harness.page.locator('.permission-options') });
    await card.waitFor({ timeout: 90_000 });
    await card.locator('.permission-options vscode-button[title$="(allow once)"]').click();
    assert.equal(await turnEnded(harness, 2), 'end_turn');
    assert.ok(existsSync(target), 'the allowed write happened');
    assert.ok(frames.frames().some((frame) => frame.direction === 'out' && frame.text.includes('"optionId":"proceed_once"')), 'Gemini\'s own option id was answered');

    await modes.selectOption('plan');
    await harness.page.locator('select[data-option-id="legacy:mode"]:not([aria-busy])').waitFor({ timeout: 30_000 });
    assert.ok(frames.frames().some((frame) => frame.direction === 'out' && frame.text.includes('"session/set_mode"') && frame.text.includes('"plan"')));
    assert.equal(await modes.inputValue(), 'plan');
  });
});
