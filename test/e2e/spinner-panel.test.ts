// The panel's spinners (a busy tab, a running tool call) in its webview bundle in Chromium with the
// extension's CSP: they turn in a few steps on one clock, so they change in the same frames and a
// card drawn again keeps its angle; with reduced motion asked for, nothing turns or pulses.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { PanelState } from '../../src/contract/viewModel';
import { panelPerTest } from '../support/panelPerTest';
import { panelState, toolEntry } from '../support/panelFixtures';

const panel = panelPerTest();

const running = (title: string) => toolEntry('t1', { title, toolKind: 'execute', status: 'in_progress' });

function busyState(patch: Partial<PanelState> = {}): PanelState {
  const state = panelState([{ kind: 'user', id: 'u', text: 'go' }, running('npm test')], { turn: { running: true }, ...patch });
  return { ...state, tabs: { ...state.tabs, tabs: state.tabs.tabs.map((tab) => ({ ...tab, busy: true })) } };
}

/** The angle, in whole degrees from 0 to 359, each spinner is drawn at now, read in one go. */
const spinnerAngles = (page: Page) => page.evaluate(() => [document.querySelector('.tab-busy'), document.querySelector('[data-entry-id="t1"] .tool-status .codicon')].map((node) => {
  if (!node) return null;
  const transform = getComputedStyle(node).transform;
  if (transform === 'none') return 0;
  const [a, b] = transform.slice(transform.indexOf('(') + 1, -1).split(',').map(Number) as [number, number];
  return (Math.round((Math.atan2(b, a) * 180) / Math.PI) + 360) % 360;
}));

describe('spinners in the panel', () => {
  test('a busy tab and a running tool call turn in eight steps on one clock: the same angle at every moment, kept when the card is drawn again', { timeout: 60_000 }, async (t) => {
    const harness = await panel(t);
    await harness.post({ type: 'snapshot', state: busyState() });
    await harness.page.locator('.tab-busy').waitFor();
    // The card is drawn again a moment later, as each update of a running call does: its spinner is a new element.
    await harness.page.waitForTimeout(230);
    await harness.post({ type: 'threadDeltas', deltas: [{ type: 'entryUpdated', entry: running('npm test -- --watch') }] });
    await harness.page.locator('[data-entry-id="t1"] .tool-title', { hasText: '--watch' }).waitFor();
    // Read as the screen shows it: the new card's turn is aligned at the next frame, before that frame is drawn.
    await harness.page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));

    const seen = new Set<number>();
    for (let sample = 0; sample < 40; sample++) {
      const [tab, card] = await spinnerAngles(harness.page);
      assert.ok(tab !== null && tab !== undefined && card !== null && card !== undefined, 'both spinners are drawn');
      assert.equal(card, tab, `the card's spinner, drawn later, is at the tab's angle (sample ${sample})`);
      assert.equal(tab % 45, 0, `${tab}° is one of eight steps`);
      seen.add(tab);
      await harness.page.waitForTimeout(31);
    }
    assert.ok(seen.size >= 6, `the spinners turn through the steps over more than a second: ${[...seen].join(', ')}`);
    assert.deepEqual(harness.pageErrors, []);
  });

  test('with reduced motion asked for, spinners stand still and the starting dot does not pulse', { timeout: 60_000 }, async (t) => {
    const harness = await panel(t);
    await harness.page.emulateMedia({ reducedMotion: 'reduce' });
    await harness.post({ type: 'snapshot', state: busyState({ connection: { phase: 'starting', message: null, agentName: 'Scripted agent' } }) });
    await harness.page.locator('.tab-busy').waitFor();
    await harness.page.locator('.phase-starting .status-dot').waitFor();
    const moving = await harness.page.evaluate(() => ['.tab-busy', '[data-entry-id="t1"] .tool-status .codicon', '.phase-starting .status-dot']
      .map((selector) => `${selector}: ${document.querySelector(selector)?.getAnimations().length ?? 'missing'}`));
    assert.deepEqual(moving, ['.tab-busy: 0', '[data-entry-id="t1"] .tool-status .codicon: 0', '.phase-starting .status-dot: 0']);
    assert.deepEqual(await spinnerAngles(harness.page), [0, 0]);
    assert.deepEqual(harness.pageErrors, []);
  });
});
