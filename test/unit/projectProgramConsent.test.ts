import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ProjectProgramConsent, type ProgramConsentAnswer, type ProgramConsentQuestion, type ProgramConsentRecord } from '../../src/permissions/projectProgramConsent';
import { scriptedEnvironment, scriptedSession, tempWorkspace, type TestScope } from '../support/sessionBuilders';

/**
 * An "agent" that does what Gemini CLI and Claude Code do with a project's settings as they
 * start: it runs each SessionStart hook of `.gemini/settings.json` at once (unless told the folder
 * is untrusted, as GEMINI_CLI_TRUST_WORKSPACE=false tells Gemini CLI), then exits. The hook the
 * project plants writes a marker file: the file on disk says whether the program ran.
 */
const hookRunningAgent = `
const { readFileSync } = require('node:fs');
const { execSync } = require('node:child_process');
if (process.env.GEMINI_CLI_TRUST_WORKSPACE !== 'false') {
  const settings = JSON.parse(readFileSync('.gemini/settings.json', 'utf8'));
  for (const group of settings.hooks.SessionStart) for (const hook of group.hooks) execSync(hook.command);
}
process.exit(3);
`;

class Records {
  list: ProgramConsentRecord[] = [];
  load = (): ProgramConsentRecord[] => this.list.map((record) => ({ ...record }));
  save = (records: ProgramConsentRecord[]): void => void (this.list = records.map((record) => ({ ...record })));
}

function plantHook(folder: string, command: string): void {
  mkdirSync(join(folder, '.gemini'), { recursive: true });
  writeFileSync(join(folder, '.gemini', 'settings.json'), JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: 'command', command }] }] } }));
}

/** A conversation with the hook-running agent in a folder with a planted hook, and the user's scripted answers. */
function conversation(t: TestScope, folder: string, consent: ProjectProgramConsent) {
  const environment = scriptedEnvironment(t, { workspace: folder, agent: 'process' });
  environment.projectPrograms = (agent, cwd) => consent.check(agent, cwd);
  return scriptedSession(t, { environment, definition: { id: 'gemini', label: 'Gemini CLI', command: process.execPath, args: ['-e', hookRunningAgent] } });
}

function user(answers: ProgramConsentAnswer[]): { questions: ProgramConsentQuestion[]; consent: (records: Records) => ProjectProgramConsent } {
  const questions: ProgramConsentQuestion[] = [];
  return {
    questions,
    consent: (records) => new ProjectProgramConsent(records, (question) => {
      questions.push(question);
      return Promise.resolve(answers.shift() ?? null);
    }),
  };
}

describe('programs a project defines run only after a yes', () => {
  test('the agent is not started before a yes: the planted hook never writes its marker; after a yes it does', async (t) => {
    const folder = tempWorkspace(t);
    const marker = join(folder, 'hook-ran');
    plantHook(folder, `touch ${marker}`);
    const asker = user([null, 'start']);
    const consent = asker.consent(new Records());
    const refused = conversation(t, folder, consent);
    assert.equal(await refused.start(), false);
    assert.equal(existsSync(marker), false, 'the planted hook ran without a yes');
    assert.match(refused.connectionView.message ?? '', /Gemini CLI was not started: this folder's files would make it run a program you have not allowed/);
    assert.deepEqual(asker.questions.map((question) => question.programs), [[`SessionStart hook [.gemini/settings.json]: touch ${marker}`]]);
    assert.equal(asker.questions[0]?.ignoreSettings, 'Gemini CLI treats the folder as untrusted and loads none of its .gemini settings.');
    // The same conversation asked again, and the user says yes: now the agent starts and runs it.
    await refused.start();
    assert.equal(existsSync(marker), true, 'the control: this agent does run the hook once started');
  });

  test('a yes is remembered for that definition; a changed definition asks again, and a no keeps it from running', async (t) => {
    const folder = tempWorkspace(t);
    const first = join(folder, 'first');
    const pulled = join(folder, 'pulled');
    plantHook(folder, `touch ${first}`);
    const records = new Records();
    const asker = user(['start', null]);
    await conversation(t, folder, asker.consent(records)).start();
    assert.equal(existsSync(first), true);
    await conversation(t, folder, asker.consent(records)).start();
    assert.equal(asker.questions.length, 1, 'asked again about a definition already allowed');
    // A `git pull` changes the hook.
    plantHook(folder, `touch ${pulled}`);
    assert.equal(await conversation(t, folder, asker.consent(records)).start(), false);
    assert.equal(asker.questions.length, 2);
    assert.equal(asker.questions[1]?.changed, 1);
    assert.equal(existsSync(pulled), false, 'the changed hook ran without a yes');
  });

  test('a yes in one folder is not a yes in another', async (t) => {
    const records = new Records();
    const asker = user(['start', null]);
    const [one, two] = [tempWorkspace(t), tempWorkspace(t)];
    plantHook(one, 'true');
    plantHook(two, `touch ${join(two, 'ran')}`);
    await conversation(t, one, asker.consent(records)).start();
    await conversation(t, two, asker.consent(records)).start();
    assert.equal(asker.questions.length, 2);
    assert.equal(existsSync(join(two, 'ran')), false);
  });

  test('"start without the project\'s settings" starts the agent with its switch, and is not remembered as a yes', async (t) => {
    const folder = tempWorkspace(t);
    const marker = join(folder, 'hook-ran');
    plantHook(folder, `touch ${marker}`);
    const records = new Records();
    const asker = user(['withoutProjectSettings']);
    const session = conversation(t, folder, asker.consent(records));
    await session.start();
    assert.equal(existsSync(marker), false, 'the hook ran although the agent was told to ignore the project settings');
    assert.deepEqual(records.list, []);
    assert.ok(session.thread.snapshot().some((entry) => entry.kind === 'notice' && entry.text.startsWith('Gemini CLI starts without this folder\'s settings')));
  });

  test('without anyone to ask, an agent does not start in a folder whose files define programs', async (t) => {
    const folder = tempWorkspace(t);
    const marker = join(folder, 'hook-ran');
    plantHook(folder, `touch ${marker}`);
    const environment = scriptedEnvironment(t, { workspace: folder, agent: 'process' });
    const session = scriptedSession(t, { environment, definition: { id: 'gemini', label: 'Gemini CLI', command: process.execPath, args: ['-e', hookRunningAgent] } });
    assert.equal(await session.start(), false);
    assert.equal(existsSync(marker), false);
  });

  test('Claude Code\'s switch goes with session/new as the adapter reads it', async (t) => {
    const folder = tempWorkspace(t);
    mkdirSync(join(folder, '.claude'));
    writeFileSync(join(folder, '.claude', 'settings.json'), JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: 'command', command: 'touch x' }] }] } }));
    const environment = scriptedEnvironment(t, { workspace: folder });
    environment.projectPrograms = (agent, cwd) => user(['withoutProjectSettings']).consent(new Records()).check(agent, cwd);
    const session = scriptedSession(t, { environment, definition: { id: 'claude-code', label: 'Claude Code' } });
    assert.ok(await session.start());
    const sent = environment.frames.frames().find((frame) => frame.direction === 'out' && frame.text.includes('"session/new"'));
    assert.deepEqual((JSON.parse(sent?.text ?? '{}') as { params?: { _meta?: unknown } }).params?._meta, { claudeCode: { options: { settingSources: ['user'], strictMcpConfig: true } } });
  });
});
