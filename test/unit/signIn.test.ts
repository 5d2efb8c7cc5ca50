import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { FrameStore } from '../../src/acp/frames';
import type { LoginCommand, SignInRunner } from '../../src/conversation/signIn';
import { scriptedSession, tempWorkspace, type TestScope } from '../support/sessionBuilders';
import { scriptedAgentDefinition } from '../support/scriptedAgentSpec';

/** Runs login programs like a terminal would, without one: the test is the user who waits. */
function recordingRunner(): SignInRunner & { logins: LoginCommand[] } {
  const logins: LoginCommand[] = [];
  return {
    logins,
    runLogin(login) {
      logins.push(login);
      return new Promise((resolve) => {
        const child = spawn(login.command, login.args, { cwd: login.cwd, env: { ...process.env, ...login.env }, stdio: 'ignore' });
        child.on('exit', (exitCode) => resolve({ exitCode }));
      });
    },
  };
}

/** The agent runs in memory; its login program is still a process, as a terminal would run it. */
function authSession(t: TestScope, mode: 'session' | 'prompt', extraEnv: Record<string, string> = {}, runner: SignInRunner | null = recordingRunner()) {
  // Outside the workspace, as a real sign-in keeps its credentials.
  const marker = join(tempWorkspace(t, 'tandem-signin-'), 'signed-in');
  const frames = new FrameStore();
  const session = scriptedSession(t, { env: { SCRIPTED_AGENT_AUTH: mode, SCRIPTED_AGENT_AUTH_MARKER: marker, ...extraEnv }, frames, ...(runner ? { signIn: runner } : {}) });
  return { session, marker, frames };
}

describe('terminal sign-in', () => {
  test('auth_required at session/new offers the terminal login; after it, Tandem reconnects', async (t) => {
    const runner = recordingRunner();
    const { session, marker, frames } = authSession(t, 'session', {}, runner);
    assert.equal(await session.start(), false);
    const view = session.connectionView;
    assert.equal(view.phase, 'signInRequired');
    assert.deepEqual(view.signIn, [{ methodId: 'scripted-login', name: 'Sign in to Scripted', description: 'Runs the scripted login in a terminal', kind: 'terminal' }]);
    const init = frames.frames().find((frame) => frame.direction === 'out' && frame.text.includes('"initialize"'));
    assert.match(init?.text ?? '', /"auth":\{"terminal":true\}/);
    assert.match(init?.text ?? '', /"terminal-auth":true/);
    assert.match(init?.text ?? '', /"terminal_output":true/);

    assert.equal(await session.signIn('scripted-login'), true);
    assert.ok(existsSync(marker), 'the login program ran');
    const [login] = runner.logins;
    assert.equal(login?.command, process.execPath);
    assert.deepEqual(login?.args.slice(-2), [scriptedAgentDefinition().args.at(-1), '--login'], "the agent's own invocation plus the method's args");
    assert.equal(session.connectionView.phase, 'ready');
    await session.prompt('echo signed in');
    assert.equal(session.thread.lastAgentText(), 'You said: signed in');
  });

  test('auth_required on a prompt: after sign-in the prompt is retried once, not re-added', async (t) => {
    const { session } = authSession(t, 'prompt');
    await session.prompt('echo needs auth');
    assert.equal(session.connectionView.phase, 'signInRequired');
    const failed = session.thread.snapshot().at(-1);
    assert.equal(failed?.kind === 'turnEnded' && failed.stopReason, 'error');
    assert.match(failed?.kind === 'turnEnded' ? failed.detail ?? '' : '', /needs you to sign in/);

    assert.equal(await session.signIn('scripted-login'), true);
    assert.equal(session.thread.lastAgentText(), 'You said: needs auth');
    const users = session.thread.snapshot().filter((entry) => entry.kind === 'user');
    assert.equal(users.length, 1);
    const last = session.thread.snapshot().at(-1);
    assert.equal(last?.kind === 'turnEnded' && last.stopReason, 'end_turn');
  });

  test('the legacy _meta["terminal-auth"] form runs its own command', async (t) => {
    const runner = recordingRunner();
    const { session, marker } = authSession(t, 'session', { SCRIPTED_AGENT_AUTH_FORM: 'legacy' }, runner);
    await session.start();
    assert.deepEqual(session.connectionView.signIn?.map((method) => method.methodId), ['scripted-legacy-login']);
    assert.equal(await session.signIn('scripted-legacy-login'), true);
    assert.equal(runner.logins[0]?.label, 'Scripted Login');
    assert.ok(existsSync(marker));
    assert.equal(session.connectionView.phase, 'ready');
  });

  test('a login that fails leaves the choice open with the reason', async (t) => {
    const { session } = authSession(t, 'session', { SCRIPTED_AGENT_LOGIN_EXIT: '5' });
    await session.start();
    assert.equal(await session.signIn('scripted-login'), false);
    assert.equal(session.connectionView.phase, 'signInRequired');
    assert.match(session.connectionView.message ?? '', /exit code 5/);
    assert.equal(session.connectionView.signIn?.length, 1);
  });

  test('without a way to run logins, nothing is advertised and the failure says so', async (t) => {
    const { session, frames } = authSession(t, 'session', {}, null);
    assert.equal(await session.start(), false);
    assert.equal(session.connectionView.phase, 'failed');
    assert.match(session.connectionView.message ?? '', /needs you to sign in/);
    const init = frames.frames().find((frame) => frame.direction === 'out' && frame.text.includes('"initialize"'));
    assert.doesNotMatch(init?.text ?? '', /terminal-auth/);
  });
});
