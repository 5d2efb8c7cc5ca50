// Feedback to the agent on its pending changes, in real VS Code: the packaged .vsix in
// code-server, an agent that writes through the editor (fs/write_text_file), and what that agent
// was sent read from the wire (a tap on its stdin logs every session/prompt as received).
// A comment from the editor's CodeLens, a hand edit of the agent's line, and a window reload that
// keeps the comments not sent yet and the reviewed marks. Runs in the shared Gemini workbench
// after the checkpoint tests, in conversations of its own with the feedback agent.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { before, describe, test } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { openNewTab, send, startFromPalette, turnEnd } from '../../support/panelUser';
import { openFile, screenshot, webviewFrame } from '../../support/workbench';
import type { TappedPrompt } from '../promptTap';
import { at, goToLine as goToLineOfActive, isDirty, request } from './reviewBytesSteps';
import { newConversationWith, settleWorkbench } from './suiteStart';
import { until, type GeminiWorkbench, type WorkbenchGetter } from './workbench';

const FILE = 'feedback.txt';
const ORIGINAL = 'one\ntwo\nthree\nfour\nfive\n';
const AGENT = 'one\nTWO\nthree\nfour\nFIVE\n';

let w: GeminiWorkbench;
let page: Page;
let panel: Frame;

/** Every prompt the agents received, in order, each as its text blocks. */
function prompts(): { sessionId: string; blocks: string[] }[] {
  if (!existsSync(w.promptLog)) return [];
  return readFileSync(w.promptLog, 'utf8').split('\n').filter((line) => line !== '').map((line) => {
    const tapped = JSON.parse(line) as TappedPrompt;
    return { sessionId: tapped.sessionId, blocks: tapped.prompt.flatMap((block) => (block.text === undefined ? [] : [block.text])) };
  });
}

/** Sends `text` and waits for its turn to end; returns the prompt the agent received for it. */
async function turn(text: string): Promise<{ sessionId: string; blocks: string[] }> {
  const ended = await panel.locator('.turn-ended').count();
  const sent = prompts().length;
  await send(panel, text);
  await panel.locator('.user-message', { hasText: text }).last().waitFor({ timeout: 30_000 });
  assert.equal(await turnEnd(panel, ended + 1, 90_000), 'end_turn');
  await until(async () => prompts().length > sent, `the agent to have received ${JSON.stringify(text.slice(0, 40))}`, 5_000);
  const received = prompts().slice(sent);
  assert.equal(received.length, 1, 'the turn sent one prompt');
  const [prompt] = received;
  assert.ok(prompt);
  assert.equal(prompt.blocks[0], text, 'the user\'s text comes first, as typed, before what the editor adds');
  return prompt;
}

/** The agent writes `text` into FILE through the editor. */
async function agentWrites(text: string): Promise<void> {
  await turn(`bytes-editor ${request([{ path: at(FILE), text }])}`);
}

const editor = () => page.locator('.editor-group-container.active .monaco-editor').first();
const lens = (title: string) => editor().locator('.codelens-decoration a', { hasText: title });
const bar = () => panel.locator('#changes-bar');

async function goToLine(line: number): Promise<void> {
  await editor().locator('.view-lines').click();
  await goToLineOfActive(line);
}

/** Writes `text` into the comment box the Comment lens or command opened, and accepts it. */
async function answerCommentBox(where: string, text: string): Promise<void> {
  const box = page.locator('.quick-input-widget', { hasText: `Comment for the agent on ${where}` });
  await box.waitFor({ state: 'visible', timeout: 10_000 });
  await box.locator('input').fill(text);
  await page.keyboard.press('Enter');
  await box.waitFor({ state: 'hidden', timeout: 10_000 });
}

/**
 * Unsaved hand edits are part of the point (the browser default saves after a second), and the
 * notes to the agent are on, as by default (the suites before turn them off); a new conversation
 * with the feedback agent in front.
 */
async function startFeedback(): Promise<void> {
  await settleWorkbench(w, { 'files.autoSave': 'off', 'tandem.review.tellAgentAboutUndo': true });
  await newConversationWith(w.panel, 'Feedback agent', 'feedback');
  ({ page, panel } = w);
}

export function registerReviewFeedbackTests(workbench: WorkbenchGetter): void {
  describe('feedback to the agent in code-server', () => {
    before(async () => {
      w = workbench();
      await startFeedback();
    });

    test('a hunk commented from the editor\'s CodeLens goes to the agent with the next prompt: file, lines, the change, the comment', { timeout: 180_000 }, async () => {
      writeFileSync(at(FILE), ORIGINAL);
      await openFile(page, FILE);
      await agentWrites(AGENT);
      await until(async () => (await lens('Comment').count()) === 2, 'a Comment lens on each of the two hunks', 20_000);
      await screenshot(page, 'e2e-feedback-codelens');
      await lens('Comment').first().click();
      await answerCommentBox('feedback.txt, line 2', 'Use a named constant here.');
      const list = panel.locator('#pending-comments');
      await list.waitFor({ timeout: 10_000 });
      assert.match(await list.innerText(), /1 comment will be sent with your next message[\s\S]*feedback\.txt line 2[\s\S]*Use a named constant here\./);
      await screenshot(page, 'e2e-feedback-comment-listed');

      const prompt = await turn('Please act on my comment.');
      assert.deepEqual(prompt.blocks, [
        'Please act on my comment.',
        '[Review comments from the user on your changes (1 comment). Line numbers are those of the files as they are now. Act on them along with the message above.]\n\n'
          + '1. feedback.txt, line 2\nYour change there:\n- two\n+ TWO\nComment: Use a named constant here.',
      ]);
      await panel.locator('.notice', { hasText: 'Sent with this message: 1 comment on changes (feedback.txt line 2).' }).waitFor({ timeout: 10_000 });
      await list.waitFor({ state: 'detached', timeout: 10_000 });
      assert.deepEqual((await turn('Anything else?')).blocks, ['Anything else?'], 'a comment goes once');
    });

    test('a hand edit of the agent\'s line is told to that agent in its next prompt, to no other agent, once', { timeout: 180_000 }, async () => {
      const first = prompts().at(-1)?.sessionId;
      await goToLine(5);
      await page.keyboard.press('End');
      await page.keyboard.type(' edited by hand');
      await until(isDirty, 'the editor to have the unsaved edit');

      const ownTab = await panel.locator('#tabs-bar .tab.active').getAttribute('data-tab-id');
      await openNewTab(panel);
      const other = await turn('Hello from another conversation');
      assert.notEqual(other.sessionId, first);
      assert.deepEqual(other.blocks, ['Hello from another conversation'], 'the other agent did not make the change and is not told');

      const firstTab = panel.locator(`#tabs-bar .tab[data-tab-id="${ownTab}"]`);
      await firstTab.click();
      await until(async () => /\bactive\b/.test((await firstTab.getAttribute('class')) ?? ''), 'the first conversation in front');
      await panel.locator('.user-message', { hasText: 'Anything else?' }).waitFor({ timeout: 10_000 });
      const told = await turn('What did I change?');
      assert.equal(told.sessionId, first);
      assert.deepEqual(told.blocks, [
        'What did I change?',
        '[Note from the editor: the user edited by hand some of the lines you changed. Line numbers are those of the files as they are now; read the files again before editing them.]\n\n'
          + 'feedback.txt, line 5:\nYou wrote:\n- FIVE\nThe user made it:\n+ FIVE edited by hand',
      ]);
      assert.deepEqual((await turn('And now?')).blocks, ['And now?'], 'told once');
    });

    test('a window reload keeps the comments not sent yet and the reviewed marks, and the comment still reaches the agent', { timeout: 240_000 }, async () => {
      await page.keyboard.press('Escape');
      await editor().locator('.view-lines').click();
      await page.keyboard.press('Control+s');
      await until(async () => readFileSync(at(FILE), 'utf8') === 'one\nTWO\nthree\nfour\nFIVE edited by hand\n', 'the hand edit on disk');
      await goToLine(2);
      await startFromPalette(page, 'Comment on Change at Cursor for the Agent');
      await answerCommentBox('feedback.txt, line 2', 'Still a magic number.');
      // The rows' list may be open already: the suites before opened it.
      const summary = bar().locator('.changes-summary');
      if ((await summary.getAttribute('aria-expanded')) !== 'true') await summary.click();
      await bar().locator(`.change-row[data-path="${at(FILE)}"] .review-toggle`).click();
      await bar().locator('.changes-summary', { hasText: '2 of 2 hunks reviewed' }).waitFor({ timeout: 10_000 });
      await panel.locator('#pending-comments', { hasText: 'Still a magic number.' }).waitFor({ timeout: 10_000 });

      // Let workspace state take the feedback, then reload the whole window.
      await page.waitForTimeout(1_500);
      await page.reload({ waitUntil: 'domcontentloaded' });
      await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
      panel = w.panel = await webviewFrame(page, '#changes-bar', 60_000);
      await bar().locator('.changes-summary', { hasText: '2 of 2 hunks reviewed' }).waitFor({ timeout: 30_000 });
      const list = panel.locator('#pending-comments');
      await list.waitFor({ timeout: 10_000 });
      assert.match(await list.innerText(), /1 comment will be sent with your next message[\s\S]*feedback\.txt line 2[\s\S]*Still a magic number\./);
      assert.doesNotMatch(await list.innerText(), /no longer pending/);
      await screenshot(page, 'e2e-feedback-after-reload');

      const prompt = await turn('After the reload.');
      assert.deepEqual(prompt.blocks, [
        'After the reload.',
        '[Review comments from the user on your changes (1 comment). Line numbers are those of the files as they are now. Act on them along with the message above.]\n\n'
          + '1. feedback.txt, line 2\nYour change there:\n- two\n+ TWO\nComment: Still a magic number.',
      ]);
    });
  });
}
