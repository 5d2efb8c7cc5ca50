import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FrameStore } from '../../src/acp/frames';
import type { SessionController } from '../../src/conversation/sessionController';
import type { ThreadEntry } from '../../src/thread/entries';
import { scriptedSession } from '../support/sessionBuilders';
import { waitFor } from '../support/waitFor';

function entriesOf(controller: SessionController, kind: ThreadEntry['kind']): ThreadEntry[] {
  return controller.thread.snapshot().filter((entry) => entry.kind === kind);
}

describe('SessionController with the scripted agent', () => {
  test('streams a reply into the thread and ends the turn', async (t) => {
    const controller = scriptedSession(t);
    await controller.prompt('echo hello there');
    assert.equal(controller.thread.lastAgentText(), 'You said: hello there');
    const ended = entriesOf(controller, 'turnEnded');
    assert.deepEqual(ended.map((entry) => entry.kind === 'turnEnded' && entry.stopReason), ['end_turn']);
    assert.equal(controller.connectionView.phase, 'ready');
  });

  test('Stop mid-turn ends the turn as cancelled', async (t) => {
    const controller = scriptedSession(t);
    const turn = controller.prompt('slow');
    await waitFor(() => controller.thread.lastAgentText().length > 20, 'some streamed text');
    await controller.cancel();
    await turn;
    const last = controller.thread.snapshot().at(-1);
    assert.equal(last?.kind === 'turnEnded' && last.stopReason, 'cancelled');
    assert.ok(controller.thread.lastAgentText().length < 1600, 'the stream stopped early');
    assert.equal(controller.turnView.running, false);
  });

  test('a permission request shows the agent options and the answer reaches the agent', async (t) => {
    const controller = scriptedSession(t);
    const turn = controller.prompt('permission');
    const permission = await waitFor(() => controller.thread.toolCall('edit-1')?.permission ?? undefined, 'permission in the card');
    assert.deepEqual(permission.options.map((option) => option.optionId), ['allow-once', 'allow-always', 'reject-once']);
    assert.equal(controller.answerPermission(permission.requestId, 'not-an-option'), false);
    assert.ok(controller.answerPermission(permission.requestId, 'reject-once'));
    await turn;
    assert.equal(controller.thread.lastAgentText(), 'Permission outcome: reject-once');
    assert.equal(controller.thread.toolCall('edit-1')?.permission, null);
    assert.equal(controller.thread.toolCall('edit-1')?.status, 'failed');
  });

  test('dismissing a permission picks the reject option, never an allow one', async (t) => {
    const controller = scriptedSession(t);
    const turn = controller.prompt('ghost-permission');
    const permission = await waitFor(() => controller.thread.toolCall('ghost-1')?.permission ?? undefined, 'ghost permission');
    assert.equal(controller.thread.toolCall('ghost-1')?.title, 'Run rm -rf build');
    controller.answerPermission(permission.requestId, null);
    await turn;
    assert.equal(controller.thread.lastAgentText(), 'Ghost outcome: reject-once');
  });

  test('Stop while a permission is open answers it cancelled', async (t) => {
    const controller = scriptedSession(t);
    const turn = controller.prompt('permission');
    await waitFor(() => controller.thread.toolCall('edit-1')?.permission ?? undefined, 'permission');
    await controller.cancel();
    await turn;
    const last = controller.thread.snapshot().at(-1);
    assert.equal(last?.kind === 'turnEnded' && last.stopReason, 'cancelled');
    assert.equal(controller.thread.toolCall('edit-1')?.status, 'cancelled');
  });

  test('a malformed line is logged as a frame and the turn still completes', async (t) => {
    const frames = new FrameStore();
    const controller = scriptedSession(t, { frames });
    await controller.prompt('malformed');
    assert.equal(controller.thread.lastAgentText(), 'Still here after a malformed line.');
    assert.ok(frames.frames().some((frame) => frame.direction === 'in' && frame.text === 'this is not json {'));
    assert.ok(frames.frames().some((frame) => frame.direction === 'out' && frame.text.includes('"code":-32700')), 'a parse error went back');
  });

  test('a crash mid-turn is one clear sentence with the exit code and the last stderr line', async (t) => {
    // A process: its exit code and stderr tail are what this checks.
    const controller = scriptedSession(t, { agent: 'process' });
    await controller.prompt('crash');
    assert.equal(controller.connectionView.phase, 'exited');
    assert.match(controller.connectionView.message ?? '', /exited with code 3\. Last output: .*simulated crash/);
    const notice = entriesOf(controller, 'notice').at(-1);
    assert.ok(notice?.kind === 'notice' && notice.actions.includes('restartAgent') && notice.actions.includes('showLog'));
    const ended = entriesOf(controller, 'turnEnded').at(-1);
    assert.equal(ended?.kind === 'turnEnded' && ended.stopReason, 'error');
    assert.ok(await controller.restart(), 'restart opens a new session');
    await controller.prompt('echo back again');
    assert.equal(controller.thread.lastAgentText(), 'You said: back again');
  });

  test('an agent that exits at start fails with its code and stderr', async (t) => {
    // A process: a program that dies before it speaks ACP.
    const controller = scriptedSession(t, { agent: 'process', env: { SCRIPTED_AGENT_EXIT_ON_START: '7' } });
    assert.equal(await controller.start(), false);
    assert.equal(controller.connectionView.phase, 'failed');
    assert.match(controller.connectionView.message ?? '', /exited with code 7.*refusing to start/);
  });

  test('a missing program says it is not installed and how to install it', async (t) => {
    // A process: the lookup of a command on the PATH.
    const controller = scriptedSession(t, { agent: 'process', definition: { command: 'no-such-agent-binary', installHint: 'Install it with `npm i -g x`.' } });
    assert.equal(await controller.start(), false);
    assert.equal(controller.connectionView.message, 'Scripted agent is not installed: "no-such-agent-binary" was not found. Install it with `npm i -g x`.');
  });

  test('a message to a missing program: its turn does not repeat the banner, which offers the install command', async (t) => {
    const controller = scriptedSession(t, { agent: 'process', definition: { command: 'no-such-agent-binary', installHint: 'Install it with `npm i -g x`, then sign in.' } });
    await controller.prompt('hello');
    assert.equal(controller.connectionView.phase, 'failed');
    assert.deepEqual(controller.connectionView.notInstalled, { installCommand: 'npm i -g x' });
    const said = controller.thread.snapshot().flatMap((entry) => (entry.kind === 'turnEnded' ? [entry.detail] : entry.kind === 'notice' ? [entry.text] : []));
    assert.deepEqual(said, [null], 'the turn failed; why is said once, in the banner');
  });

  test('Restricted Mode spawns nothing and says why', async (t) => {
    // A process: only a spawned agent has a pid whose absence means nothing was started.
    const controller = scriptedSession(t, { agent: 'process', trusted: false });
    assert.equal(controller.connectionView.phase, 'restricted');
    assert.equal(await controller.start(), false);
    assert.equal(controller.agentPid, undefined);
    assert.match(controller.connectionView.message ?? '', /Restricted Mode/);
  });
});
