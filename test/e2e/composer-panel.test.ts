// The composer's words for what is not obvious at a glance, in the real panel bundle in Chromium:
// the icon buttons' names on focus and hover, and "/" before the agent has started.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { conversationView, panelState } from '../support/panelFixtures';
import { panelPerTest } from '../support/panelPerTest';
import { screenshot } from '../support/workbench';

const panel = panelPerTest();

const conversation = conversationView;

describe('the composer says what things are', () => {
  test('the eye and shield buttons say what they are on keyboard focus and on hover, inside a 300 px panel', async (t) => {
    const harness = await panel(t);
    const page = harness.page;
    await page.setViewportSize({ width: 300, height: 700 });
    await harness.post({ type: 'snapshot', state: panelState([]) });
    const tips = page.locator('.icon-toggle .icon-tip');
    assert.equal(await tips.filter({ visible: true }).count(), 0, 'no tip until asked for');
    await page.locator('#composer-input textarea').focus();
    let reached = '';
    for (let presses = 0; presses < 10 && reached !== 'follow-agent'; presses++) {
      await page.keyboard.press('Tab');
      reached = await page.evaluate(() => document.activeElement?.id ?? '');
    }
    assert.equal(reached, 'follow-agent', 'Tab reaches the eye');
    const follow = page.locator('#follow-agent .icon-tip');
    assert.equal(await follow.isVisible(), true);
    assert.equal(await follow.innerText(), 'Follow the agent: open each file it touches in the editor');
    await page.keyboard.press('Tab');
    assert.equal(await follow.isVisible(), false, 'it goes with the focus');
    assert.equal(await page.locator('#permissions-button .icon-tip').innerText(), 'Permissions: what is allowed without asking');
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.locator('#permissions-button').hover();
    const box = await page.locator('#permissions-button .icon-tip').boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= 300, `the tip stays inside the panel: ${JSON.stringify(box)}`);
    assert.equal(await page.locator('#permissions-button').getAttribute('aria-label'), 'Permissions');
    await screenshot(page, 'webview-icon-tip-300');
  });

  test('a / typed before the agent has started says why nothing completes, or completes from its last run and says so', async (t) => {
    const harness = await panel(t);
    const input = harness.page.locator('#composer-input textarea');
    const hint = harness.page.locator('#command-hint');
    const labels = harness.page.locator('.completion-item .completion-label');
    await harness.post({ type: 'snapshot', state: panelState([]) });
    await harness.post({ type: 'conversationChanged', conversation: conversation({ commandsFrom: 'notStarted' }) });
    await input.click();
    await input.pressSequentially('/');
    await hint.waitFor({ state: 'visible', timeout: 5_000 });
    assert.equal(await hint.innerText(), 'The agent lists its commands once it has started: send a message to start it.');
    assert.deepEqual(await labels.allInnerTexts(), []);
    await screenshot(harness.page, 'webview-commands-not-started');
    const commands = [{ name: 'tour', description: 'The whole tour', inputHint: null }];
    await harness.post({ type: 'conversationChanged', conversation: conversation({ commands, commandsFrom: 'lastRun' }) });
    await labels.first().waitFor({ timeout: 5_000 });
    assert.deepEqual(await labels.allInnerTexts(), ['/tour']);
    assert.equal(await hint.innerText(), "Commands from the agent's last run: it starts when you send.");
    await screenshot(harness.page, 'webview-commands-last-run');
    // The agent started and listed the same commands: they are its own now.
    await harness.post({ type: 'conversationChanged', conversation: conversation({ commands }) });
    await hint.waitFor({ state: 'hidden', timeout: 5_000 });
    assert.deepEqual(await labels.allInnerTexts(), ['/tour']);
    await input.press('Backspace');
    assert.equal(await hint.isVisible(), false, 'no "/" typed, no word about commands');
  });
});

describe('a budget beside the meter', () => {
  test('near a limit the bar says how much of which budget is spent, at a 300 px panel; reached, it says the limit stops turns; within, nothing', async (t) => {
    const harness = await panel(t);
    const page = harness.page;
    await page.setViewportSize({ width: 300, height: 700 });
    await harness.post({ type: 'snapshot', state: panelState([]) });
    const usage = { kind: 'context' as const, used: 9_000, size: 200_000, percent: 4.5, level: 'normal' as const, cost: { amount: 0.85, currency: 'USD' } };
    const budget = page.locator('#budget-warning');
    await harness.post({ type: 'conversationChanged', conversation: conversation({ usage }) });
    assert.equal(await budget.isVisible(), false, 'within every limit: nothing');
    await harness.post({ type: 'conversationChanged', conversation: conversation({ usage, budget: { level: 'near', short: '$0.85 of $1.00 here', text: "Near this conversation's budget: $0.85 of $1.00 spent." } }) });
    await budget.waitFor({ state: 'visible', timeout: 5_000 });
    assert.equal(await budget.innerText(), '$0.85 of $1.00 here');
    assert.equal(await budget.getAttribute('aria-label'), "Near this conversation's budget: $0.85 of $1.00 spent.");
    const box = await budget.boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= 300, `inside the panel: ${JSON.stringify(box)}`);
    await screenshot(page, 'webview-budget-near-300');
    await harness.post({ type: 'conversationChanged', conversation: conversation({ usage, budget: { level: 'reached', short: '$1.20 of $1.00 here', text: "Stopped: this conversation's budget is reached ($1.20 of $1.00 spent). Raise tandem.budget.perConversation to go on." } }) });
    await page.locator('#budget-warning.level-reached').waitFor({ timeout: 5_000 });
    assert.match(await budget.getAttribute('aria-label') ?? '', /Raise tandem\.budget\.perConversation/);
  });
});
