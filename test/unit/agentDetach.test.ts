import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { FrameStore } from '../../src/acp/frames';
import { SessionController } from '../../src/conversation/sessionController';
import { silentLogger } from '../../src/util/logger';
import { scriptedAgentDefinition } from '../support/scriptedAgentSpec';
import { tempWorkspace } from '../support/sessionBuilders';
import { isAlive } from '../support/terminalHarness';
import { waitFor } from '../support/waitFor';
import { folderScope } from '../../src/workspace/workspaceScope';

/**
 * Processes on purpose: a crash is a process that ends without being asked to, and what is
 * compared is what a stop and a crash leave behind.
 */
const workspace = tempWorkspace({ after }, 'tandem-detach-');

/** What a conversation keeps of its agent; nothing, once it let go of it. */
function agentState(session: SessionController) {
  return { live: session.live, sessionId: session.currentSessionId, pid: session.agentPid, history: session.history };
}

const detached = { live: null, sessionId: null, pid: undefined, history: { list: false, load: false, resume: false, close: false, delete: false, fork: false } };

/** A conversation whose agent waits for a permission answer, with the agent's pid and the open request. */
async function waitingForPermission(t: { after(fn: () => unknown): void }) {
  const session = new SessionController(scriptedAgentDefinition(), { workspace: () => folderScope(workspace), trusted: true, frames: new FrameStore(), logger: silentLogger });
  t.after(() => session.dispose());
  const turn = session.prompt('permission');
  const permission = await waitFor(() => session.thread.toolCall('edit-1')?.permission ?? undefined, 'the permission asked');
  const pid = session.agentPid;
  assert.ok(pid !== undefined && isAlive(pid));
  return { session, turn, pid, requestId: permission.requestId };
}

describe('letting go of the agent', () => {
  test('a stop and a crash leave the same state: no connection, no session, no process, the permission answered; both start again', async (t) => {
    const stopped = await waitingForPermission(t);
    await stopped.session.stopAgent();
    await stopped.turn;
    const crashed = await waitingForPermission(t);
    process.kill(crashed.pid, 'SIGKILL');
    await crashed.turn;
    await waitFor(() => crashed.session.connectionView.phase === 'exited' || undefined, 'the crash seen');

    assert.deepEqual(agentState(stopped.session), detached);
    assert.deepEqual(agentState(crashed.session), detached);
    for (const { session, pid, requestId } of [stopped, crashed]) {
      assert.equal(session.answerPermission(requestId, 'allow-once'), false, 'the open permission was answered (cancelled) when the agent went');
      assert.equal(session.thread.toolCall('edit-1')?.permission, null);
      await waitFor(() => !isAlive(pid) || undefined, 'the process gone');
    }
    assert.match(crashed.session.connectionView.message ?? '', /was killed by SIGKILL/);

    for (const { session, pid } of [stopped, crashed]) {
      assert.ok(await session.restart(), 'a restart opens a new session');
      assert.notEqual(session.agentPid, pid);
      await session.prompt('echo again');
      assert.equal(session.thread.lastAgentText(), 'You said: again');
    }
  });
});
