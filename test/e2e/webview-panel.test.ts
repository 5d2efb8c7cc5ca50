// The panel's webview bundle in Chromium with the extension's CSP, driven by host messages:
// hostile agent text stays inert, and the conversation controls behave. No VS Code here (see
// gemini-workbench.e2e.test.ts for that); this is the fast, exhaustive layer.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { ThreadEntry } from '../../src/thread/entries';
import type { PanelStrings } from '../../src/contract/panelStrings';
import { ChatPresenter } from '../../src/panel/chatPresenter';
import { ChangeLedger } from '../../src/review/changeLedger';
import { hostileContent } from '../support/hostileContent';
import { ledgerReviewSource } from '../support/ledgerReviewSource';
import type { PanelHarness } from '../support/panelHarness';
import { conversationView, HOSTILE_INLINE, HOSTILE_MARKDOWN, HUGE_MARKDOWN, panelState, toolEntry } from '../support/panelFixtures';
import { scriptedDefinition, scriptedEnvironment, tempWorkspace } from '../support/sessionBuilders';
import { MemoryGrantStore, PermissionPolicy } from '../../src/permissions/permissionPolicy';
import { panelPerTest } from '../support/panelPerTest';
import { screenshot } from '../support/workbench';

const panel = panelPerTest();

/** Waits (bounded) until the panel has sent `count` messages of `type`. */
async function sentCount(harness: PanelHarness, type: string, count: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (harness.sent.filter((message) => message.type === type).length >= count) return;
    await harness.page.waitForTimeout(20);
  }
  throw new Error(`the panel sent fewer than ${count} ${type} messages`);
}

const pwned = (harness: PanelHarness) => harness.page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned ?? null);

describe('hostile agent content in the panel', () => {
  test('a corpus of hostile payloads in every place agent text appears: nothing runs, nothing loads, the panel still works', { timeout: 120_000 }, async (t) => {
    const harness = await panel(t);
    const entries: ThreadEntry[] = [
      { kind: 'user', id: 'u1', text: HOSTILE_INLINE },
      { kind: 'thought', id: 'th', text: HOSTILE_MARKDOWN },
      { kind: 'agentMessage', id: 'm1', text: HOSTILE_MARKDOWN },
      toolEntry('t1', {
        title: HOSTILE_INLINE, toolKind: 'execute', status: 'failed', locations: [{ path: 'javascript:window.__pwned=1', line: 3 }],
        content: [{ type: 'text', text: HOSTILE_INLINE }, { type: 'diff', path: HOSTILE_INLINE, oldText: HOSTILE_INLINE, newText: `${HOSTILE_INLINE}\nmore` },
          { type: 'image', mimeType: 'image/svg+xml', data: 'PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+' }, { type: 'resource', uri: 'javascript:window.__pwned=1', text: HOSTILE_INLINE }],
        rawInput: HOSTILE_INLINE, rawOutput: HOSTILE_INLINE,
        permission: { requestId: 'p1', options: [{ optionId: 'x', name: HOSTILE_INLINE, kind: 'allow_once' }] },
      }),
      toolEntry('t2', { title: 'Read <b>x</b>', toolKind: 'read', status: 'completed', permissionNote: HOSTILE_INLINE }),
      { kind: 'plan', id: 'pl', items: [{ content: HOSTILE_INLINE, status: 'in_progress', priority: 'high' }] },
      { kind: 'notice', id: 'n1', severity: 'error', text: HOSTILE_INLINE, actions: ['showLog'] },
      { kind: 'turnEnded', id: 'te', stopReason: 'error', detail: HOSTILE_INLINE },
    ];
    await harness.post({ type: 'snapshot', state: panelState(entries, { sessionTitle: HOSTILE_INLINE, connection: { phase: 'failed', message: HOSTILE_INLINE, agentName: HOSTILE_INLINE } }) });
    const hostileOption = { value: HOSTILE_INLINE, name: HOSTILE_INLINE, description: HOSTILE_INLINE, group: HOSTILE_INLINE };
    await harness.post({ type: 'conversationChanged', conversation: {
      controls: [{ kind: 'select', id: 'mode', name: HOSTILE_INLINE, description: HOSTILE_INLINE, category: 'mode', source: 'config', pending: false, currentValue: HOSTILE_INLINE, choices: [hostileOption] }],
      usage: { kind: 'context', used: 5, size: 10, percent: 50, level: 'normal', cost: { amount: 1, currency: 'XXXX<script>' } },
      commands: [{ name: HOSTILE_INLINE, description: HOSTILE_INLINE, inputHint: HOSTILE_INLINE }],
      prompt: { image: false, embeddedContext: false }, followAgent: false,
    } });
    await harness.post({ type: 'permissionsChanged', permissions: { agentId: 'x', autoAllowKinds: ['read'], grants: [{ id: 'g', agentId: 'x', toolKind: 'execute', subject: HOSTILE_INLINE, description: HOSTILE_INLINE, createdAt: 0 }],
      projectRules: [{ path: 'javascript:window.__pwned=1', label: HOSTILE_INLINE, allow: [HOSTILE_INLINE], deny: [] }] } });
    await harness.page.locator('.agent-message', { hasText: 'END-OF-HOSTILE' }).waitFor({ timeout: 10_000 });
    await harness.page.locator('#permissions-button').click();
    await harness.page.locator('#composer-input textarea').fill('/');
    await harness.page.locator('.completion-item').first().waitFor({ timeout: 5_000 });
    await harness.page.keyboard.press('Escape');
    // Click every link the agent wrote: links only ever become an `openLink` request to the host.
    for (const link of await harness.page.locator('#tandem-root a').all()) await link.click({ timeout: 2_000 }).catch(() => undefined);
    await harness.page.locator('.thread details').evaluateAll((nodes) => nodes.forEach((node) => ((node as HTMLDetailsElement).open = true)));
    await harness.page.waitForTimeout(300);

    assert.equal(await pwned(harness), null, 'no payload ran');
    assert.deepEqual(await harness.page.locator('#tandem-root').evaluate(hostileContent), []);
    assert.deepEqual(harness.blockedRequests, [], 'nothing outside the bundle was requested');
    const links = harness.sent.filter((message) => message.type === 'openLink').map((message) => message.type === 'openLink' ? message.href : '');
    assert.ok(links.every((href) => !/^\s*(javascript|vbscript|data):/i.test(href)), `links sent to the host: ${links.join(', ')}`);
    assert.match(await harness.page.locator('.agent-message').innerText(), /<script>window.__pwned = "script"<\/script>/, 'raw HTML shows as text');
    assert.ok(await harness.page.locator('#composer-input').isVisible(), 'the panel is still laid out');
    assert.equal(await harness.page.evaluate(() => getComputedStyle(document.body).display), 'block');
    assert.deepEqual(harness.pageErrors.filter((error) => !/Content Security Policy|net::ERR_BLOCKED/i.test(error)), []);
  });

  test('huge inputs render within bounds and leave the panel usable', { timeout: 120_000 }, async (t) => {
    const harness = await panel(t);
    const started = Date.now();
    await harness.post({ type: 'snapshot', state: panelState([{ kind: 'user', id: 'u', text: 'go' }]) });
    await harness.post({ type: 'threadDeltas', deltas: [{ type: 'entryAdded', entry: { kind: 'agentMessage', id: 'big', text: '' } }] });
    for (let offset = 0; offset < HUGE_MARKDOWN.length; offset += 200_000) {
      await harness.post({ type: 'threadDeltas', deltas: [{ type: 'textAppended', entryId: 'big', text: HUGE_MARKDOWN.slice(offset, offset + 200_000) }] });
    }
    await harness.page.locator('.agent-message', { hasText: 'END-OF-HUGE' }).waitFor({ timeout: 60_000 });
    const seconds = (Date.now() - started) / 1000;
    await harness.page.locator('#composer-input textarea').fill('echo still alive');
    await harness.page.locator('#composer-input textarea').press('Enter');
    assert.ok(harness.sent.some((message) => message.type === 'sendPrompt' && message.text === 'echo still alive'), 'the composer still sends');
    assert.equal(await pwned(harness), null);
    t.diagnostic(`huge corpus (${(HUGE_MARKDOWN.length / 1e6).toFixed(1)} MB) rendered in ${seconds.toFixed(1)} s`);
  });

  test('an answer that arrives all at once is drawn a slice per frame, and all of it arrives', async (t) => {
    const harness = await panel(t);
    const paragraphs = Array.from({ length: 2_000 }, (_, i) => `Paragraph ${i} of a long answer that came in one burst.`);
    await harness.post({ type: 'snapshot', state: panelState([{ kind: 'user', id: 'u', text: 'go' }]) });
    await harness.post({ type: 'threadDeltas', deltas: [{ type: 'entryAdded', entry: { kind: 'agentMessage', id: 'burst', text: '' } }] });
    await harness.post({ type: 'threadDeltas', deltas: [{ type: 'textAppended', entryId: 'burst', text: `${paragraphs.join('\n\n')}\n\nThe end.` }] });
    const message = harness.page.locator('[data-entry-id="burst"]');
    await message.locator('.md-tail', { hasText: 'The end.' }).waitFor({ timeout: 30_000 });
    const blocks = await message.locator('.md-block').count();
    assert.ok(blocks >= 5, `about 110 KB in slices of 16 KB or less: ${blocks} blocks`);
    const shown = await message.locator('p').allTextContents();
    assert.deepEqual(shown, [...paragraphs, 'The end.'], 'every paragraph once, in order');
  });
});

const conversation = conversationView;

describe('conversation controls in the panel', () => {
  test('the empty state, the message box and Send / Stop show the texts the host translated', async (t) => {
    const german: PanelStrings = {
      emptyState: 'Frag den Agenten alles über diesen Arbeitsbereich.',
      emptyStateTour: 'Neu hier? Sende /tour für eine kurze Führung.',
      emptyStateHint: 'Eingabe sendet, Umschalt+Eingabe fügt eine Zeile ein.',
      composerPlaceholder: 'Frag den Agenten (/ Befehle, @ Dateien)',
      commandsNotStarted: 'Der Agent nennt seine Befehle, sobald er läuft: Sende eine Nachricht, um ihn zu starten.',
      commandsFromLastRun: 'Befehle vom letzten Lauf des Agenten: Er startet, wenn du sendest.',
      composerLabel: 'Nachricht an den Agenten',
      send: 'Senden',
      sendTitle: 'Senden (Eingabe)',
      stop: 'Anhalten',
      stopTitle: 'Den Agenten anhalten (Escape) & "weiter" <tippen>',
    };
    const harness = await panel(t, german);
    await harness.post({ type: 'snapshot', state: panelState([]) });
    const page = harness.page;
    assert.deepEqual(await page.locator('.empty-state p').allInnerTexts(), [german.emptyState, german.emptyStateTour, german.emptyStateHint]);
    const input = page.locator('#composer-input');
    assert.deepEqual([await input.getAttribute('placeholder'), await input.getAttribute('aria-label')], [german.composerPlaceholder, german.composerLabel]);
    const send = page.locator('#send-button');
    assert.deepEqual([await send.innerText(), await send.getAttribute('title')], [german.send, german.sendTitle]);
    await harness.post({ type: 'turnChanged', turn: { running: true } });
    await page.locator('#send-button', { hasText: german.stop }).waitFor({ timeout: 5_000 });
    assert.equal(await send.getAttribute('title'), german.stopTitle);
    await harness.post({ type: 'conversationChanged', conversation: conversation({ commandsFrom: 'notStarted' }) });
    await page.locator('#composer-input textarea').pressSequentially('/');
    assert.equal(await page.locator('#command-hint').innerText(), german.commandsNotStarted);
    assert.deepEqual(harness.pageErrors, []);
  });

  test('pickers in category order with groups and toggles; the meter warns; the plan strip counts', async (t) => {
    const harness = await panel(t);
    await harness.post({ type: 'snapshot', state: panelState([{ kind: 'user', id: 'u', text: 'go' }, { kind: 'plan', id: 'p', items: [
      { content: 'Read', status: 'completed', priority: 'low' }, { content: 'Edit the greeting', status: 'in_progress', priority: 'low' }, { content: 'Test', status: 'pending', priority: 'low' }] }]) });
    await harness.post({ type: 'conversationChanged', conversation: conversation({
      controls: [
        { kind: 'select', id: 'mode', name: 'Mode', description: null, category: 'mode', source: 'config', pending: false, currentValue: 'ask', choices: [{ value: 'ask', name: 'Ask', description: null, group: null }, { value: 'auto', name: 'Auto', description: null, group: null }] },
        { kind: 'select', id: 'model', name: 'Model', description: null, category: 'model', source: 'config', pending: false, currentValue: 'b', choices: [{ value: 'a', name: 'A', description: null, group: 'Fast' }, { value: 'b', name: 'B', description: null, group: 'Smart' }] },
        { kind: 'boolean', id: 'fast', name: 'Fast mode', description: null, category: 'model_config', source: 'config', pending: false, currentValue: false },
      ],
      usage: { kind: 'context', used: 172_000, size: 200_000, percent: 86, level: 'warning', cost: { amount: 0.042, currency: 'USD' } },
    }) });
    const pickers = harness.page.locator('#config-pickers select');
    await pickers.first().waitFor();
    assert.deepEqual(await pickers.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-option-id'))), ['mode', 'model']);
    assert.deepEqual(await harness.page.locator('select[data-option-id="model"] optgroup').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('label'))), ['Fast', 'Smart']);
    await harness.page.locator('select[data-option-id="mode"]').selectOption('auto');
    await harness.page.locator('button[data-option-id="fast"]').click();
    assert.deepEqual(harness.sent.filter((message) => message.type === 'setSessionOption'), [
      { type: 'setSessionOption', optionId: 'mode', value: 'auto' }, { type: 'setSessionOption', optionId: 'fast', value: true }]);
    const meter = harness.page.locator('#usage-meter');
    assert.equal(await meter.getAttribute('aria-valuenow'), '86');
    assert.match(await meter.getAttribute('class') ?? '', /level-warning/);
    assert.match(await meter.getAttribute('title') ?? '', /172,000 of 200,000 tokens used \(86%\)\. Cost so far: \$0\.042/);
    assert.match(await meter.innerText(), /86%\s*\$0\.042/);
    assert.match(await harness.page.locator('#plan-strip').innerText(), /1\/3\s*Edit the greeting/);
    await harness.page.locator('#plan-strip .plan-summary').click();
    assert.equal(await harness.page.locator('#plan-strip li').count(), 3);
    await harness.post({ type: 'threadDeltas', deltas: [{ type: 'entryAdded', entry: { kind: 'user', id: 'u2', text: 'next' } }] });
    await harness.page.locator('#plan-strip').waitFor({ state: 'hidden', timeout: 5_000 });
    assert.equal(await harness.page.locator('.thread .plan').count(), 1, 'the plan stays in the thread');

    await harness.post({ type: 'conversationChanged', conversation: conversation({ usage: { kind: 'turn', inputTokens: 137, outputTokens: 6, totalTokens: 143 } }) });
    await meter.filter({ hasText: '143 tokens last turn' }).waitFor({ timeout: 5_000 });
    assert.equal(await meter.getAttribute('aria-valuenow'), null, 'no percentage without a window size');
  });

  test('/ completes commands with their hint, @ asks the host and attaches a mention, messages typed during a turn queue', async (t) => {
    const harness = await panel(t);
    const input = harness.page.locator('#composer-input textarea');
    await harness.post({ type: 'snapshot', state: panelState([]) });
    await harness.post({ type: 'conversationChanged', conversation: conversation({ commands: [
      { name: 'review', description: 'Review changes', inputHint: null }, { name: 'test', description: 'Run tests', inputHint: 'a pattern' }] }) });
    await input.click();
    await input.pressSequentially('/te');
    assert.deepEqual(await harness.page.locator('.completion-item .completion-label').allInnerTexts(), ['/test']);
    await input.press('Enter');
    assert.equal(await input.inputValue(), '/test ');
    assert.match(await harness.page.locator('#command-hint').innerText(), /input: a pattern/);

    await input.pressSequentially('@gree');
    await harness.page.waitForFunction(() => true);
    const request = await (async () => {
      for (let i = 0; i < 50; i++) {
        const found = harness.sent.filter((message) => message.type === 'requestMentions').at(-1);
        if (found?.type === 'requestMentions' && found.query === 'gree') return found;
        await harness.page.waitForTimeout(20);
      }
      throw new Error('no mention request');
    })();
    await harness.post({ type: 'mentionCandidates', requestId: request.requestId, items: [
      { kind: 'file', label: 'greeting.ts', path: '/w/src/greeting.ts', detail: 'src/greeting.ts', startLine: null, endLine: null, open: true }] });
    await harness.page.locator('.completion-item', { hasText: 'greeting.ts' }).waitFor();
    await input.press('Tab');
    assert.equal(await input.inputValue(), '/test @greeting.ts ');
    assert.equal(await harness.page.locator('.attachment-chip').count(), 1);
    await input.press('Enter');
    const sent = harness.sent.filter((message) => message.type === 'sendPrompt').at(-1);
    assert.ok(sent?.type === 'sendPrompt' && sent.text === '/test @greeting.ts' && sent.mentions?.[0]?.path === '/w/src/greeting.ts');

    await harness.post({ type: 'turnChanged', turn: { running: true } });
    const prompts = harness.sent.filter((message) => message.type === 'sendPrompt').length;
    await input.fill('first queued');
    await input.press('Enter');
    await sentCount(harness, 'sendPrompt', prompts + 1);
    assert.equal(await input.inputValue(), '', 'a message typed during a turn goes to the host, which queues it');
    const queued = (id: string, text: string) => ({ id, text, mentions: [], images: [] });
    await harness.post({ type: 'queueChanged', queue: { items: [queued('q1', 'first queued'), queued('q2', 'second queued')], paused: false } });
    const items = harness.page.locator('#prompt-queue .queue-item');
    await items.nth(1).waitFor();
    assert.deepEqual(await harness.page.locator('#prompt-queue .queue-text').allInnerTexts(), ['first queued', 'second queued']);
    assert.match(await harness.page.locator('#prompt-queue').getAttribute('aria-label') ?? '', /Queued \(2\): sent when the agent is done/);
    await items.filter({ hasText: 'second queued' }).getByRole('button', { name: 'Send now' }).click();
    await sentCount(harness, 'queueAction', 1);
    assert.deepEqual(harness.sent.at(-1), { type: 'queueAction', action: 'sendNow', id: 'q2' });
    await items.filter({ hasText: 'first queued' }).getByRole('button', { name: 'Edit this message' }).click();
    await sentCount(harness, 'queueAction', 2);
    assert.deepEqual(harness.sent.at(-1), { type: 'queueAction', action: 'edit', id: 'q1' });
    assert.equal(await input.inputValue(), 'first queued', 'edit puts the message back in the box');
    await items.filter({ hasText: 'second queued' }).getByRole('button', { name: 'Remove this message' }).click();
    await sentCount(harness, 'queueAction', 3);
    assert.deepEqual(harness.sent.at(-1), { type: 'queueAction', action: 'remove', id: 'q2' });
    await harness.post({ type: 'queueChanged', queue: { items: [queued('q3', 'held one')], paused: true } });
    await harness.page.locator('#prompt-queue .queue-title', { hasText: 'on hold after the turn stopped' }).waitFor({ timeout: 5_000 });
    await harness.post({ type: 'queueChanged', queue: { items: [], paused: false } });
    await harness.page.locator('#prompt-queue').waitFor({ state: 'hidden', timeout: 5_000 });
    await input.fill('');
    const images = harness.page.locator('#composer-status');
    await harness.page.evaluate(() => {
      const data = new DataTransfer();
      data.items.add(new File([new Uint8Array([137, 80, 78, 71])], 'shot.png', { type: 'image/png' }));
      document.querySelector('#composer-input')?.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true }));
    });
    assert.match(await images.innerText(), /cannot take images/);
  });

  test('a / typed before the agent reports its commands completes when they come; the same commands again keep the selection', async (t) => {
    const harness = await panel(t);
    const input = harness.page.locator('#composer-input textarea');
    const labels = harness.page.locator('.completion-item .completion-label');
    await harness.post({ type: 'snapshot', state: panelState([]) });
    await input.click();
    await input.pressSequentially('/e');
    assert.deepEqual(await labels.allInnerTexts(), [], 'no commands yet');
    const commands = [{ name: 'edit', description: 'Make an edit', inputHint: null }, { name: 'explain', description: 'Explain code', inputHint: null }];
    await harness.post({ type: 'conversationChanged', conversation: conversation({ commands }) });
    await labels.first().waitFor({ timeout: 5_000 });
    assert.deepEqual(await labels.allInnerTexts(), ['/edit', '/explain'], 'the list opened without another keystroke');
    await input.press('ArrowDown');
    // A usage update brings the same commands: the list stays where the user moved it.
    await harness.post({ type: 'conversationChanged', conversation: conversation({ commands, usage: { kind: 'context', used: 5, size: 10, percent: 50, level: 'normal', cost: null } }) });
    await harness.post({ type: 'threadDeltas', deltas: [] });
    assert.equal(await harness.page.locator('.completion-item[aria-selected="true"] .completion-label').innerText(), '/explain');
    await input.press('Enter');
    assert.equal(await input.inputValue(), '/explain ');
  });

  test('consecutive reads and searches fold into one summary row; code blocks have copy buttons', async (t) => {
    const harness = await panel(t);
    await harness.post({ type: 'snapshot', state: panelState([
      { kind: 'user', id: 'u', text: 'go' },
      toolEntry('r1', { title: 'Read a.ts', toolKind: 'read', status: 'completed' }),
      toolEntry('r2', { title: 'Read b.ts', toolKind: 'read', status: 'completed' }),
      toolEntry('s1', { title: 'grep -rn x', toolKind: 'search', status: 'in_progress' }),
      toolEntry('e1', { title: 'Edit a.ts', toolKind: 'edit', status: 'completed' }),
      { kind: 'agentMessage', id: 'm', text: 'Done:\n\n```ts\nconst x = 1;\n```\n' },
    ]) });
    const group = harness.page.locator('details.tool-group');
    await group.waitFor({ state: 'attached' });
    assert.equal(await group.count(), 1);
    assert.match(await group.locator('summary').innerText(), /Read 2 files, 1 search\s*grep -rn x/);
    assert.equal(await group.evaluate((node) => (node as HTMLDetailsElement).open), false, 'collapsed');
    await harness.post({ type: 'threadDeltas', deltas: [{ type: 'entryUpdated', entry: toolEntry('s1', { title: 'grep -rn x', toolKind: 'search', status: 'completed' }) }] });
    assert.equal(await group.locator('.tool-card').count(), 3, 'an updated card stays in its group');
    await harness.page.locator('.agent-message pre.code-block').hover();
    await harness.page.locator('.agent-message .copy-code').click();
    assert.deepEqual(harness.sent.filter((message) => message.type === 'copyText'), [{ type: 'copyText', text: 'const x = 1;\n' }]);
  });
  test('a tool call\'s raw input and output open from a button, by mouse or keyboard, and a card drawn again starts closed', async (t) => {
    const harness = await panel(t);
    const rawInput = JSON.stringify({ command: 'npm test', cwd: '/w' });
    await harness.post({ type: 'snapshot', state: panelState([
      { kind: 'user', id: 'u', text: 'go' },
      toolEntry('x1', { title: 'npm test', toolKind: 'execute', status: 'completed', rawInput, rawOutput: 'exit 0' }),
    ]) });
    const card = harness.page.locator('.tool-card[data-tool-call-id="call-x1"]');
    const input = card.getByRole('button', { name: 'Raw input', exact: true });
    const output = card.getByRole('button', { name: 'Raw output', exact: true });
    await input.waitFor();
    assert.equal(await input.getAttribute('aria-expanded'), 'false');
    assert.equal(await card.locator('pre[aria-label="Raw input"]').isVisible(), false, 'closed at first');
    await input.click();
    assert.equal(await input.getAttribute('aria-expanded'), 'true');
    assert.equal(await card.locator('pre[aria-label="Raw input"]').innerText(), rawInput);
    assert.equal(await card.locator('pre[aria-label="Raw output"]').isVisible(), false, 'the other stays closed');
    await output.focus();
    await harness.page.keyboard.press('Enter');
    assert.equal(await card.locator('pre[aria-label="Raw output"]').innerText(), 'exit 0');
    await harness.page.keyboard.press('Space');
    assert.equal(await output.getAttribute('aria-expanded'), 'false');
    assert.equal(await card.locator('pre[aria-label="Raw output"]').isVisible(), false, 'closed again from the keyboard');
    await harness.post({ type: 'threadDeltas', deltas: [{ type: 'entryUpdated', entry: toolEntry('x1', { title: 'npm test', toolKind: 'execute', status: 'failed', rawInput, rawOutput: 'exit 1' }) }] });
    await card.locator('.tool-status', { hasText: 'Failed' }).waitFor();
    assert.equal(await input.getAttribute('aria-expanded'), 'false');
    assert.equal(await card.locator('pre[aria-label="Raw input"]').isVisible(), false);
    assert.deepEqual(harness.pageErrors, []);
  });

  test('a code block scrolled sideways keeps its copy button in its top right corner, and the button copies the whole block', async (t) => {
    const harness = await panel(t);
    const longLine = `const routes = [${Array.from({ length: 30 }, (_, i) => `'/api/v1/resource${i}'`).join(', ')}];`;
    await harness.post({ type: 'snapshot', state: panelState([{ kind: 'agentMessage', id: 'm1', text: `Routes:\n\n\`\`\`ts\n${longLine}\n\`\`\`\n` }]) });
    const block = harness.page.locator('.agent-message pre.code-block');
    const copy = harness.page.locator('.agent-message .copy-code');
    await block.hover();
    const corner = async () => {
      const [pre, button] = [await block.boundingBox(), await copy.boundingBox()];
      assert.ok(pre && button);
      return { right: Math.round(pre.x + pre.width - (button.x + button.width)), top: Math.round(button.y - pre.y) };
    };
    const before = await corner();
    await harness.page.mouse.wheel(400, 0);
    await harness.page.waitForFunction(() => (document.querySelector('.agent-message pre.code-block') as HTMLElement).scrollLeft > 0);
    assert.deepEqual(await corner(), before, 'the button stays where it was while the code scrolls under it');
    assert.ok(before.right >= 0 && before.right < 20 && before.top >= 0 && before.top < 20, `the button is in the block's top right corner (${JSON.stringify(before)})`);
    await copy.click();
    assert.deepEqual(harness.sent.filter((message) => message.type === 'copyText'), [{ type: 'copyText', text: `${longLine}\n` }]);
  });
});

describe('review feedback in the panel', () => {
  test('an edit asks with its diff (or says it sent none); a hunk is commented by keyboard, listed above the composer, marked reviewed and counted; the comment goes with the next message', { timeout: 120_000 }, async (t) => {
    const harness = await panel(t);
    const environment = scriptedEnvironment(t);
    const ledger = new ChangeLedger();
    let presenter: ChatPresenter | null = null;
    const post = harness.connect(() => presenter as ChatPresenter);
    presenter = new ChatPresenter(() => [scriptedDefinition()], 'scripted', environment, post,
      { showLog: () => undefined, showTraffic: () => undefined, openLink: () => undefined, rememberAgent: () => undefined }, ledgerReviewSource(ledger, environment.workspaceRoot));
    const created = presenter;
    t.after(() => created.dispose());
    const page = harness.page;
    const input = page.locator('#composer-input textarea');
    await page.locator('.connection-status.phase-ready').waitFor({ timeout: 30_000 });

    await input.fill('conversation');
    await input.press('Enter');
    const edit = page.locator('.tool-card[data-tool-call-id="conv-edit"]');
    await edit.locator('.permission-options').waitFor({ timeout: 30_000 });
    const asked = edit.locator('.permission .tool-diff');
    assert.deepEqual(await asked.locator('.diff-line').evaluateAll((lines) => lines.map((line) => `${line.querySelector('.diff-sign')?.textContent ?? ''} ${line.querySelector('.diff-code')?.textContent ?? ''}`)), ['− export const greeting = "hello";', '+ export const greeting = "hello, world";'], 'the question shows the diff the agent sent');
    assert.equal(await edit.locator('.tool-diff').count(), 1, 'shown once, in the question');
    await screenshot(page, 'webview-permission-diff');
    await edit.locator('.permission-options vscode-button[title$="(allow once)"]').click();
    await page.locator('.turn-ended').first().waitFor({ state: 'attached', timeout: 30_000 });

    const file = join(environment.workspaceRoot, 'src/greeting.ts');
    ledger.record(file, { before: 'export const greeting = "hello";\n\nexport const x = 1;\n', after: 'export const greeting = "hello, world";\n\nexport const x = 2;\n', origin: 'editor', toolCallId: 'conv-edit' });
    const hunks = edit.locator('.tool-diff.pending .hunk');
    await hunks.nth(1).waitFor({ timeout: 10_000 });
    const comment = hunks.nth(0).locator('button[title^="Comment on this change"]');
    await comment.focus();
    await page.keyboard.press('Enter');
    const box = page.getByRole('textbox', { name: 'Comment for the agent on src/greeting.ts line 1' });
    await box.waitFor({ timeout: 5_000 });
    assert.equal(await box.evaluate((node) => node === document.activeElement), true, 'the box has the keyboard');
    await page.keyboard.type('Keep the greeting short.');
    await page.keyboard.press('Escape');
    await box.waitFor({ state: 'detached', timeout: 5_000 });
    assert.equal(harness.sent.filter((message) => message.type === 'reviewFeedback').length, 0, 'Escape sends nothing');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Use a named constant.');
    await page.keyboard.press('Enter');
    const listed = page.locator('#pending-comments');
    await listed.waitFor({ timeout: 10_000 });
    assert.match(await listed.innerText(), /1 comment will be sent with your next message\s+src\/greeting\.ts line 1\s+Use a named constant\./);
    assert.equal(await hunks.nth(0).locator('.hunk-comment .comment-text').innerText(), 'Use a named constant.', 'the comment shows under its hunk');
    // The card was drawn again with the comment: the keyboard is back on its hunk's Comment.
    await page.waitForFunction(() => document.activeElement?.getAttribute('title') === 'Comment on this change (line 1) for the agent', undefined, { timeout: 5_000 });

    await hunks.nth(1).getByRole('button', { name: 'Reviewed' }).click();
    const summary = page.locator('#changes-bar .changes-summary');
    await summary.filter({ hasText: '1 of 2 hunks reviewed' }).waitFor({ timeout: 10_000 });
    assert.match(await summary.innerText(), /1 file changed\s+\+2\s+−2\s+·\s+1 of 2 hunks reviewed/);
    assert.equal(await hunks.nth(1).getByRole('button', { name: 'Reviewed' }).getAttribute('aria-pressed'), 'true');
    await summary.click();
    const row = page.locator(`#changes-bar .change-row[data-path="${file}"]`);
    assert.equal(await row.locator('.review-toggle .review-count').innerText(), '1/2 reviewed', 'each row counts its own');
    assert.match(await row.locator('.review-toggle').getAttribute('title') ?? '', /^1 of 2 hunks reviewed\. Mark every change to src\/greeting\.ts reviewed$/);
    await row.getByRole('button', { name: 'Changes to src/greeting.ts', exact: true }).click();
    const rowHunks = page.locator('#changes-bar .change-hunks .hunk');
    await rowHunks.nth(1).waitFor({ timeout: 5_000 });
    assert.equal(await rowHunks.locator('button[title^="Comment on this change"]').count(), 2, 'the row opens onto its hunks, each with Comment');
    assert.equal(await rowHunks.nth(0).locator('.comment-text').innerText(), 'Use a named constant.');
    await screenshot(page, 'webview-review-feedback');
    await page.locator('#changes-bar').getByRole('button', { name: 'Keep reviewed' }).click();
    await summary.filter({ hasText: '0 of 1 hunk reviewed' }).waitFor({ timeout: 10_000 });
    assert.deepEqual(ledger.file(file)?.hunks.map((hunk) => hunk.added), [['export const greeting = "hello, world";']], 'only the reviewed hunk was kept');

    const turns = await page.locator('.turn-ended').count();
    await input.fill('echo thanks');
    await input.press('Enter');
    await page.locator('.turn-ended').nth(turns).waitFor({ state: 'attached', timeout: 30_000 });
    const prompt = environment.frames.frames().filter((frame) => frame.direction === 'out' && frame.text.includes('"session/prompt"')).at(-1);
    assert.match(prompt?.text ?? '', /1\. src\/greeting\.ts, line 1\\nYour change there:\\n- export const greeting = \\"hello\\";\\n\+ export const greeting = \\"hello, world\\";\\nComment: Use a named constant\./);
    await listed.waitFor({ state: 'detached', timeout: 10_000 });
    assert.match(await page.locator('.notice').last().innerText(), /Sent with this message: 1 comment on changes \(src\/greeting\.ts line 1\)\./);

    await input.fill('ask edit src/other.ts');
    await input.press('Enter');
    const blind = page.locator('.tool-card', { has: page.locator('.permission-options') });
    await blind.waitFor({ timeout: 30_000 });
    assert.equal(await blind.locator('.permission-no-diff').innerText(), 'The agent sent no diff for this edit: you cannot see the change before allowing it.');
    await blind.locator('.permission-options vscode-button[title$="(reject once)"]').click();
    assert.deepEqual(harness.pageErrors, []);
  });
});

describe('permission lifetimes in the panel', () => {
  test('each "always" says how long it lasts before the click; a session-long one answers that session only', { timeout: 120_000 }, async (t) => {
    const harness = await panel(t);
    const workspace = tempWorkspace(t);
    const policy = new PermissionPolicy({ workspaceRoots: () => [workspace], autoAllowKinds: () => [], store: new MemoryGrantStore() });
    t.after(() => policy.dispose());
    const environment = scriptedEnvironment(t, { workspace, permissionPolicy: policy });
    let presenter: ChatPresenter | null = null;
    const post = harness.connect(() => presenter as ChatPresenter);
    presenter = new ChatPresenter(() => [scriptedDefinition()], 'scripted', environment, post,
      { showLog: () => undefined, showTraffic: () => undefined, openLink: () => undefined, rememberAgent: () => undefined }, ledgerReviewSource(new ChangeLedger(), workspace));
    const created = presenter;
    t.after(() => created.dispose());
    const page = harness.page;
    const input = page.locator('#composer-input textarea');
    await page.locator('.connection-status.phase-ready').waitFor({ timeout: 30_000 });

    await input.fill(`ask session edit ${join(workspace, 'a.ts')}`);
    await input.press('Enter');
    const asked = page.locator('.tool-card', { has: page.locator('.permission-options') });
    await asked.waitFor({ timeout: 30_000 });
    assert.equal(await asked.locator('.permission-lifetime').innerText(), '"Yes, allow all edits during this session" lasts for this session only.');
    await screenshot(page, 'webview-permission-lifetime');
    await asked.locator('.permission-options vscode-button[title$="(allow always)"]').click();
    await page.locator('.agent-message', { hasText: 'Outcome: allow-once' }).waitFor({ timeout: 30_000 });

    await input.fill(`ask session edit ${join(workspace, 'b.ts')}`);
    await input.press('Enter');
    await page.locator('.permission-note', { hasText: 'Allowed by your rule: Edits inside the workspace, for this session only' }).waitFor({ timeout: 30_000 });

    await input.fill('ask execute npm test');
    await input.press('Enter');
    await asked.waitFor({ timeout: 30_000 });
    assert.equal(await asked.locator('.permission-lifetime').innerText(), '"Always allow" lasts from now on in this workspace, until you revoke it.');
    await asked.locator('.permission-options vscode-button[title$="(reject once)"]').click();
    assert.deepEqual(harness.pageErrors, []);
  });
});
