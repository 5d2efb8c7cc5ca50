import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ConnectionView } from '../../src/conversation/connection';
import { STARTUP_TIMEOUTS_MS } from '../../src/conversation/startupProgress';
import { scriptedSession } from '../support/sessionBuilders';
import { waitFor } from '../support/waitFor';

function stagesOf(view: ConnectionView): string[] {
  return (view.startup?.stages ?? []).map((stage) => `${stage.stage}:${stage.state}`);
}

function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
}

describe('startup diagnostics', () => {
  test('an agent that never answers initialize is stopped at its deadline with one sentence, the stages, its stderr and a report', async (t) => {
    const controller = scriptedSession(t, { agent: 'process', env: { SCRIPTED_AGENT_HANDSHAKE: 'silent' }, startupTimeoutsMs: { initialized: 3000 } });
    let pid: number | undefined;
    controller.onConnectionChanged(() => {
      pid ??= controller.agentPid;
    });
    const started = Date.now();
    assert.equal(await controller.start(), false);
    assert.ok(Date.now() - started < 8000, 'it ended at the deadline, not later');
    assert.ok(pid !== undefined, 'a process was started');
    await waitFor(() => processGone(pid ?? 0), 'the agent process to be stopped', 5000);
    const view = controller.connectionView;
    assert.equal(view.phase, 'failed');
    assert.equal(view.message, 'Scripted agent did not answer `initialize` within 3 s; Tandem stopped it.');
    assert.deepEqual(stagesOf(view), ['spawned:done', 'initialized:stalled', 'signedIn:waiting', 'sessionReady:waiting']);
    assert.ok(view.startup?.stderrTail.some((line) => line.includes('license server that never answers')), 'the stderr tail is shown');
    const report = view.startup?.report ?? '';
    assert.match(report, /did not answer `initialize` within 3 s/);
    assert.match(report, /Initialize answered\s+stalled \(\d+ ms\)/);
    assert.match(report, /Agent: did not say/);
    assert.match(report, /license server/);
    // The default deadline for initialize keeps the promise of at most 30 s.
    assert.ok(STARTUP_TIMEOUTS_MS.initialized <= 30_000);
  });

  test('the stage being waited for is shown while an agent starts, and a finished start shows none', async (t) => {
    const controller = scriptedSession(t);
    const seen: string[][] = [];
    controller.onConnectionChanged((view) => {
      if (view.phase === 'starting') seen.push(stagesOf(view));
    });
    assert.equal(await controller.start(), true);
    assert.deepEqual(seen.map((stages) => stages.find((stage) => stage.endsWith(':running'))), ['initialized:running', 'signedIn:running', 'sessionReady:running']);
    assert.equal(controller.connectionView.startup, undefined);
  });

  test('an agent that exits during the handshake: the banner sentence without the log, the log tail apart, redacted', async (t) => {
    const secret = 'postgres://deploy:Zr8fK2pQ7wLx9Tb4@db.internal.example:5432/app';
    // The agent logs the secret as it exits: it must not reach the banner or the report.
    const controller = scriptedSession(t, { agent: 'process', env: { SCRIPTED_AGENT_HANDSHAKE: 'exit-on-session', SCRIPTED_AGENT_STORE_URL: secret } });
    assert.equal(await controller.start(), false);
    const view = controller.connectionView;
    assert.equal(view.phase, 'failed');
    assert.match(view.message ?? '', /exited with code 4\. Last output: .*cannot create the session store/);
    assert.equal(view.startup?.summary, 'Scripted agent exited with code 4.');
    assert.ok(view.startup?.stderrTail.some((line) => line.includes('cannot create the session store')));
    assert.deepEqual(stagesOf(view).slice(-1), ['sessionReady:failed']);
    assert.match(view.startup?.report ?? '', /cannot create the session store at postgres:/);
    assert.ok(!(view.startup?.report ?? '').includes('Zr8fK2pQ7wLx9Tb4'), 'the password is redacted in the report');
    assert.ok(!(view.startup?.stderrTail.join('\n') ?? '').includes('Zr8fK2pQ7wLx9Tb4'), 'and in the tail');
  });

  test('a crash after the start shows its sentence with the log tail apart, for the banner to fold', async (t) => {
    const controller = scriptedSession(t, { agent: 'process' });
    await controller.prompt('crash');
    const view = controller.connectionView;
    assert.equal(view.phase, 'exited');
    assert.equal(view.startup?.summary, 'Scripted agent exited with code 3.');
    assert.ok(view.startup?.stderrTail.some((line) => line.includes('simulated crash')));
    assert.match(view.startup?.report ?? '', /^Tandem: Scripted agent exited with code 3\./);
  });
});

describe('bad input during the handshake', () => {
  test('an agent that answers with another protocol version is stopped with a sentence that says so', async (t) => {
    const controller = scriptedSession(t, { env: { SCRIPTED_AGENT_HANDSHAKE: 'protocol-2' } });
    assert.equal(await controller.start(), false);
    assert.equal(controller.connectionView.phase, 'failed');
    assert.match(controller.connectionView.message ?? '', /speaks ACP protocol version 2, and Tandem speaks version 1/);
    assert.deepEqual(stagesOf(controller.connectionView).slice(0, 2), ['spawned:done', 'initialized:failed']);
  });

  test('lines that are not JSON on stdout are named once in the thread, and the session works', async (t) => {
    const controller = scriptedSession(t, { env: { SCRIPTED_AGENT_HANDSHAKE: 'banner' } });
    await controller.prompt('echo still fine');
    assert.equal(controller.thread.lastAgentText(), 'You said: still fine');
    const notices = controller.thread.snapshot().filter((entry) => entry.kind === 'notice');
    assert.equal(notices.length, 1);
    const notice = notices[0];
    assert.ok(notice?.kind === 'notice');
    assert.equal(notice.severity, 'warning');
    assert.match(notice.text, /wrote a line that is not an ACP message on its output \("Welcome to the scripted agent!"\)/);
    assert.deepEqual(notice.actions, ['showTraffic']);
  });

  test('updates for a session that is still opening are held and applied in order once it is open, none lost', async (t) => {
    const controller = scriptedSession(t, { env: { SCRIPTED_AGENT_EARLY_UPDATES: '1' } });
    assert.equal(await controller.start(), true);
    assert.deepEqual(controller.thread.facts.availableCommands.map((command) => command.name), ['early']);
    assert.equal(controller.thread.facts.title, 'Early title');
    assert.equal(controller.thread.lastAgentText(), 'Hello before the answer.');
    await controller.prompt('echo after');
    assert.equal(controller.thread.lastAgentText(), 'You said: after');
  });
});
