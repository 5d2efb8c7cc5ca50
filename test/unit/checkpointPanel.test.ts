/**
 * "Restore to here" from the panel's side, on the scripted agent and a real folder: each user
 * message gets its checkpoint through the prompt hook, the preview lists the files before
 * anything is written, the restore writes them and says so in the thread, and the conversation
 * continues in a new tab whose agent is told, once, what happened.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { CheckpointHostMessage, CheckpointPreviewView } from '../../src/contract/checkpointView';
import { AgentCatalog } from '../../src/panel/agentCatalog';
import { CheckpointPanel } from '../../src/checkpoints/panel/checkpointPanel';
import { OpenConversations } from '../../src/panel/openConversations';
import type { SessionTab } from '../../src/panel/sessionTab';
import { checkpointedWorkspace } from '../support/checkpointHarness';
import { onTestEnd, scriptedDefinition, scriptedEnvironmentIn, tempWorkspace, type TestScope } from '../support/sessionBuilders';

function panelOn(t: TestScope) {
  const root = tempWorkspace(t, 'tandem-checkpoint-panel-');
  const workspace = join(root, 'workspace');
  mkdirSync(workspace);
  const project = checkpointedWorkspace(workspace, join(root, 'storage'));
  const agents = new AgentCatalog(() => [scriptedDefinition()]);
  const quiet = () => undefined;
  const tabs = new OpenConversations(agents, scriptedEnvironmentIn(workspace), { delta: quiet, connection: quiet, turn: quiet, terminals: quiet, activity: quiet, queue: quiet }, undefined,
    { activated: quiet, tabsChanged: quiet, changed: quiet, closed: quiet });
  tabs.restore(undefined, 'scripted');
  const posted: CheckpointHostMessage[] = [];
  const panel = new CheckpointPanel(project.service, tabs, (message) => posted.push(message), quiet);
  onTestEnd(t, () => {
    panel.dispose();
    tabs.dispose();
    project.dispose();
  });
  /** A message as the prompt path sends it: checkpoint first, then the turn. */
  const send = async (tab: SessionTab, text: string) => {
    const checkpoint = await panel.beforePrompt(tab, text);
    const turn = tab.session.prompt(text, panel.takePromptNotes(tab.session.key));
    panel.sent(tab, checkpoint);
    await turn;
  };
  const lastPreview = (): CheckpointPreviewView | null | undefined => posted.flatMap(({ update }) => (update.kind === 'preview' ? [update.preview] : [])).at(-1);
  return { project, tabs, panel, posted, send, lastPreview, at: (name: string) => join(workspace, name) };
}

describe('checkpoints in the panel', () => {
  test('preview, then restore of code and conversation: files back, a notice, a new tab told once', async (t) => {
    const { project, tabs, panel, send, lastPreview, at } = panelOn(t);
    writeFileSync(at('a.txt'), 'before\n');
    const tab = tabs.active;
    await send(tab, 'echo first');
    project.diskWrite(at('a.txt'), 'after\n');
    await send(tab, 'echo second');
    const [first] = panel.view().messages;
    assert.deepEqual(panel.view().messages.map((message) => message.restorable), [true, true]);
    assert.equal(panel.view().redo, null);

    await panel.handle({ kind: 'preview', entryId: first?.entryId ?? '' });
    const preview = lastPreview();
    assert.equal(preview?.title, 'Restore to before your message “echo first”');
    assert.deepEqual(preview?.files.map((file) => [file.label, file.action, file.added, file.removed]), [['a.txt', 'restore', 1, 1]]);
    assert.match(preview?.conversation ?? '', /new session of Scripted/);
    assert.equal(readFileSync(at('a.txt'), 'utf8'), 'after\n', 'the preview writes nothing');

    await panel.handle({ kind: 'restore', previewId: preview?.previewId ?? '', scope: 'both', keepMine: [] });
    assert.equal(lastPreview(), null);
    assert.equal(readFileSync(at('a.txt'), 'utf8'), 'before\n');
    const notice = tab.session.thread.snapshot().filter((entry) => entry.kind === 'notice').at(-1);
    assert.match(notice?.kind === 'notice' ? notice.text : '', /^Restored 1 file to how it was before your message “echo first”: a.txt\./);
    assert.match(panel.view().redo ?? '', /before restoring to “echo first”/);
    assert.deepEqual(panel.takePromptNotes(tab.session.key), ['[Note from the editor: the user restored a file to how it was before your message “echo first”: a.txt. The files on disk are the truth now; read them again before editing.]'],
      'the agent that worked on the files is told they moved back');

    const copy = tabs.active;
    assert.notEqual(copy, tab, 'the conversation continues in a new tab');
    assert.deepEqual(copy.session.thread.snapshot().filter((entry) => entry.kind === 'user'), [], 'before the first message: nothing');
    const [note] = panel.takePromptNotes(copy.session.key);
    assert.match(note ?? '', /restored to how they were before that message/);
    assert.deepEqual(panel.takePromptNotes(copy.session.key), [], 'told once');
  });

  test('a file whose only change since the agent is Tandem\'s own undo is not called a hand edit, and is restored', async (t) => {
    const { project, tabs, panel, send, lastPreview, at } = panelOn(t);
    writeFileSync(at('a.txt'), 'one\ntwo\nthree\nfour\nfive\n');
    const tab = tabs.active;
    await send(tab, 'echo first');
    project.diskWrite(at('a.txt'), 'ONE\ntwo\nthree\nfour\nFIVE\n');
    const last = project.ledger.file(at('a.txt'))?.hunks.at(-1);
    await project.undoHunk(at('a.txt'), last?.id ?? '');
    assert.equal(readFileSync(at('a.txt'), 'utf8'), 'ONE\ntwo\nthree\nfour\nfive\n', 'the undo is on disk');

    await panel.handle({ kind: 'preview', entryId: panel.view().messages[0]?.entryId ?? '' });
    const preview = lastPreview();
    assert.deepEqual(preview?.files.map((file) => [file.label, file.action, file.handEdit]), [['a.txt', 'restore', null]], 'no warning about changes by hand or by another program');
    // As the panel sends it: the files marked with a warning are kept unless the user ticks the box.
    const keepMine = preview?.files.filter((file) => file.handEdit !== null).map((file) => file.path) ?? [];
    await panel.handle({ kind: 'restore', previewId: preview?.previewId ?? '', scope: 'code', keepMine });
    assert.equal(readFileSync(at('a.txt'), 'utf8'), 'one\ntwo\nthree\nfour\nfive\n');
    const notice = tab.session.thread.snapshot().filter((entry) => entry.kind === 'notice').at(-1);
    assert.equal(notice?.kind === 'notice' ? notice.text : '', 'Restored 1 file to how it was before your message “echo first”: a.txt. "Redo restore" brings back what it held.');
  });

  test('a stale preview restores nothing, and a message without a checkpoint says so', async (t) => {
    const { project, tabs, panel, send, lastPreview, at } = panelOn(t);
    writeFileSync(at('a.txt'), 'before\n');
    await send(tabs.active, 'echo one');
    project.diskWrite(at('a.txt'), 'after\n');
    await panel.handle({ kind: 'restore', previewId: 'p99', scope: 'code', keepMine: [] });
    assert.equal(readFileSync(at('a.txt'), 'utf8'), 'after\n');
    assert.equal(lastPreview(), null);
    await panel.handle({ kind: 'preview', entryId: 'e999' });
    const notice = tabs.active.session.thread.snapshot().at(-1);
    assert.match(notice?.kind === 'notice' ? notice.text : '', /has no checkpoint/);
  });
});
