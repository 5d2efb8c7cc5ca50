// A long answer from the real Claude adapter, streamed by the scripted model server in
// 12-character deltas. The panel follows the answer to its last line and keeps it in view after
// the turn ends; a reader who scrolls up is left there; scrolling back down follows again. The
// adapter runs below the editor's priority, as the default of tandem.agentPriority says, and like
// any program once the user's settings say `normal`.
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { constants } from 'node:os';
import { before, describe, test } from 'node:test';
import { CLAUDE_CODE } from '../../support/agentWorkbench';
import { lastLineInView, longMarkdown } from '../../support/longAnswer';
import { processesCarrying, schedulerGroupCheck, schedulingOf, sessionLeadersIn } from '../../support/processGroups';
import { openNewTab, pickAgent, pickedAgent, saveUserSettings, send, tandemLogText, turnEnd } from '../../support/panelUser';
import { waitFor } from '../../support/waitFor';
import { screenshot } from '../../support/workbench';
import type { ClaudeWorkbench, Workbench } from './shared';

/** The size of one streamed delta, as the model's own are (a few tokens). */
const DELTA = 12;
/** A long answer: about 1,500 sections, far beyond what a block of streamed text holds. */
const ANSWER_BYTES = 150_000;
/** How soon after reaching the document the last line must be in view (the view follows in the frame that draws it). */
const IN_VIEW_MS = 2_000;

/** The newest agent message's line holding `marker`, once it is in the panel's document. */
const lineWith = ({ panel }: ClaudeWorkbench, marker: string) => panel.locator('.agent-message').last().locator('p', { hasText: marker });

/** How far the thread's view is from its end, in pixels, and where it is scrolled to. */
const threadScroll = ({ panel }: ClaudeWorkbench) => panel.locator('#thread').evaluate((thread) => ({ fromEnd: thread.scrollHeight - thread.scrollTop - thread.clientHeight, top: thread.scrollTop }));

const inView = ({ panel }: ClaudeWorkbench, marker: string) => panel.evaluate(lastLineInView, marker);

const turns = ({ panel }: ClaudeWorkbench) => panel.locator('.turn-ended').count();

/** Fails unless the line holding `marker`, already in the document, comes into view within IN_VIEW_MS. */
async function expectFollowed(bench: ClaudeWorkbench, marker: string): Promise<void> {
  await bench.panel.waitForFunction(lastLineInView, marker, { timeout: IN_VIEW_MS }).catch(async () => {
    const shot = await screenshot(bench.page, 'long-answer-not-followed');
    assert.fail(`the last line reached the document but was not in view ${IN_VIEW_MS} ms later (${JSON.stringify(await threadScroll(bench))}; ${shot})`);
  });
}

/** A new tab on the Claude adapter, ready for a prompt. */
async function newClaudeTab(bench: ClaudeWorkbench): Promise<void> {
  await openNewTab(bench.panel);
  if ((await pickedAgent(bench.panel)) !== CLAUDE_CODE.id) await pickAgent(bench.panel, 'Claude Code');
  await bench.panel.locator('.connection-status.phase-ready').waitFor({ timeout: 60_000 });
}

/** Registers the long-answer tests; they run last, since the final one sets the adapters' priority to normal for good. */
export function describeLongAnswer(workbench: Workbench): void {
  describe('a long answer from the real Claude adapter in code-server', () => {
    let workspace: string;

    /** A Claude adapter process (a session of its own, in the workspace, pointed at this model server) not among `known`. */
    const newAdapter = (known: readonly number[]): Promise<number> => {
      const { model } = workbench();
      const claude = () => processesCarrying('ANTHROPIC_BASE_URL', model.url);
      return waitFor(() => sessionLeadersIn(workspace).find((pid) => !known.includes(pid) && claude().includes(pid)), 'a Claude adapter started in the workspace', 30_000);
    };

    before(async () => {
      const bench = workbench();
      // The model server's queue is shared with the other describes: none may have left a turn in it for these prompts to take.
      assert.equal(bench.model.pendingTurns, 0, 'no scripted turn left queued');
      workspace = realpathSync(bench.tandem.workspace);
      await newClaudeTab(bench);
    });

    test('the adapter the editor started runs below the editor: the below-normal nice, for it and for its scheduler group', async (t) => {
      // The tab's adapter, whichever conversation started it (the fork's may serve this tab too).
      const scheduling = schedulingOf(await newAdapter([]));
      assert.equal(scheduling.nice, constants.priority.PRIORITY_BELOW_NORMAL, 'the adapter');
      await schedulerGroupCheck(t, "the adapter's scheduler group is below normal", () => {
        assert.equal(scheduling.groupNice, constants.priority.PRIORITY_BELOW_NORMAL, "the adapter's scheduler group");
      });
    });

    test('streamed as fast as the model server writes, it is followed to its last line, which stays in view after the turn ends', { timeout: 240_000 }, async () => {
      const bench = workbench();
      const marker = 'END-OF-FOLLOWED-ANSWER';
      const before = await turns(bench);
      bench.model.enqueue({ text: longMarkdown(ANSWER_BYTES, marker), chunkSize: DELTA });
      await send(bench.panel, 'Write the long answer');
      await lineWith(bench, marker).waitFor({ timeout: 180_000 });
      await expectFollowed(bench, marker);
      assert.equal(await turnEnd(bench.panel, before + 1, 60_000), 'end_turn');
      // The composer grows when a turn ends (its usage shows), and the blocks above settle: still at the end.
      await bench.page.waitForTimeout(1_000);
      assert.equal(await inView(bench, marker), true, `the last line is in view once the turn has ended: ${JSON.stringify(await threadScroll(bench))}`);
      assert.ok((await threadScroll(bench)).fromEnd <= 1, `the view is at the end: ${JSON.stringify(await threadScroll(bench))}`);
      await screenshot(bench.page, 'long-answer-followed');
    });

    test('a reader who scrolls up while it streams is left there; scrolling back to the end follows the next answer', { timeout: 240_000 }, async () => {
      const bench = workbench();
      const { page, panel, model } = bench;
      const marker = 'END-OF-ANSWER-READ-FROM-ABOVE';
      const before = await turns(bench);
      // At the model's pace (5,000 deltas a second) the answer streams for about 5 s: time to scroll up in the middle of it.
      model.enqueue({ text: longMarkdown(2 * ANSWER_BYTES, marker), chunkSize: DELTA, deltasPerSecond: 5_000 });
      await send(panel, 'Write another long answer');
      await panel.locator('.agent-message').last().locator('h2', { hasText: 'Section 200' }).waitFor({ timeout: 120_000 });
      const thread = panel.locator('#thread');
      await thread.hover();
      await page.mouse.wheel(0, -2_000);
      // Every scroll from here on, so a failure shows how the view moved (time, where, how far from the end).
      await panel.evaluate(`(() => {
        const thread = document.querySelector('#thread');
        window.__scrolls = [];
        thread.addEventListener('scroll', () => window.__scrolls.push([Math.round(performance.now()), thread.scrollTop, thread.scrollHeight - thread.scrollTop - thread.clientHeight]));
      })()`);
      await page.waitForTimeout(300);
      const reader = await threadScroll(bench);
      const readerAt = reader.top;
      assert.ok(reader.fromEnd > 1_000, `the view stays where the reader scrolled to, not at the end: ${reader.fromEnd} px from it`);
      assert.equal(await lineWith(bench, marker).count(), 0, 'the reader scrolled up while the answer was still streaming');
      assert.equal(await turnEnd(panel, before + 1, 120_000), 'end_turn');
      // Nothing is to happen here, so only a wait can show that nothing did.
      await page.waitForTimeout(1_000);
      const after = await threadScroll(bench);
      assert.ok(Math.abs(after.top - readerAt) <= 2, `the reader was at ${readerAt}, the view is at ${after.top}; scrolls (ms, top, from the end), the first 20: ${JSON.stringify(((await panel.evaluate('window.__scrolls')) as unknown[]).slice(0, 20))}`);
      assert.equal(await inView(bench, marker), false, 'the last line is below the view the reader chose');
      await screenshot(page, 'long-answer-reader-above');

      // Back at the end, the next answer is followed again.
      await thread.hover();
      await page.mouse.wheel(0, after.fromEnd + 1_000);
      await panel.waitForFunction(() => {
        const view = document.querySelector('#thread');
        return view !== null && view.scrollHeight - view.scrollTop - view.clientHeight < 2;
      }, undefined, { timeout: 5_000 });
      const next = 'END-OF-THE-NEXT-ANSWER';
      model.enqueue({ text: longMarkdown(20_000, next), chunkSize: DELTA });
      await send(panel, 'And a shorter one');
      assert.equal(await turnEnd(panel, before + 2, 120_000), 'end_turn');
      await lineWith(bench, next).waitFor({ timeout: 10_000 });
      await expectFollowed(bench, next);
    });

    test('with tandem.agentPriority set to normal in the user settings, the adapter of the next conversation runs like any program', { timeout: 120_000 }, async (t) => {
      const bench = workbench();
      const running = sessionLeadersIn(workspace);
      const { userDataDir } = bench.tandem.server;
      await saveUserSettings(bench.page, userDataDir, (settings) => ({ ...settings, 'tandem.agentPriority': 'normal' }));
      // The extension host hears of the change a moment after the file is saved; Tandem's log says when.
      await waitFor(() => tandemLogText(userDataDir).includes('tandem.agentPriority is normal') || undefined, 'Tandem to log the new priority', 15_000);
      await newClaudeTab(bench);
      const scheduling = schedulingOf(await newAdapter(running));
      assert.equal(scheduling.nice, schedulingOf(process.pid).nice, 'the adapter, at the nice of the programs the user starts');
      await schedulerGroupCheck(t, "the adapter's scheduler group is at the normal nice", () => {
        assert.equal(scheduling.groupNice, 0, "the adapter's scheduler group");
      });
    });
  });
}
