// The fidelity report built from the live traffic of the real agents (scripted model servers on
// 127.0.0.1): what each agent declared, did with files behind the editor's back, and asked.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Frame } from '../../src/wire/frame';
import type { FidelityReport } from '../../src/inspector/fidelityReportShape';
import { reportOf } from '../support/conversationReportOf';
import { startClaudeModelServer } from '../support/model-servers/claude';
import { startGeminiModelServer } from '../support/model-servers/gemini';
import { claudeAgentSpec, geminiAgentSpec } from '../support/real-agents';
import { definitionFromSpec } from '../support/realAgentDefinitions';
import { endAfterTest, reviewedRealAgentSession, startScriptedRealAgent } from '../support/realAgentRun';
import { allowingPermissions, reviewedSession } from '../support/reviewHarness';

/** How often the agent sent this request, counted on the wire. */
function sentByAgent(frames: readonly Frame[], method: string): number {
  return frames.filter((frame) => frame.direction === 'in' && frame.text.includes(`"method":"${method}"`) && /"id":/.test(frame.text)).length;
}

const calls = (report: FidelityReport, method: string) => report.clientMethods.find((use) => use.method === method)?.calls;

describe('the fidelity report of real Claude Code, which works the disk itself', () => {
  test('Write, Edit, Bash and a Read: no fs/* calls, two files written to disk by the agent, a display terminal, usage, asks by kind, a silent read and the grant it keeps in the project', { timeout: 300_000 }, async (t) => {
    const agent = await startScriptedRealAgent(startClaudeModelServer, claudeAgentSpec);
    const { model, spec } = agent;
    const workspace = spec.cwd;
    // "default" asks before edits and commands, so the report has permission requests to count.
    const { session, ledger, frames } = reviewedRealAgentSession(t, agent, { definition: { defaultMode: 'default' } });
    const existing = join(workspace, 'existing.txt');
    writeFileSync(existing, 'keep me\nchange me\n');
    const inside = join(workspace, 'notes.md');
    writeFileSync(inside, '# read me quietly\n');
    const created = join(workspace, 'created.md');
    model.enqueue(
      { toolUses: [{ name: 'Write', input: { file_path: created, content: 'brand new\n' } }] },
      { toolUses: [{ name: 'Edit', input: { file_path: existing, old_string: 'change me', new_string: 'changed by claude' } }] },
      { toolUses: [{ name: 'Bash', input: { command: 'node -e "console.log(6 * 7)"', description: 'Print a number' } }] },
      { toolUses: [{ name: 'Read', input: { file_path: inside } }] },
      { text: 'All done.' },
    );
    // Edits are allowed once; the command (code, so Claude Code asks) "always", which it keeps as a rule in the project.
    const answered: string[] = [];
    const answering = setInterval(() => {
      const asking = session.thread.findLastToolCall((tool) => tool.permission !== null);
      const permission = asking?.permission;
      if (!asking || !permission) return;
      const kind = asking.toolKind === 'execute' ? 'allow_always' : 'allow_once';
      const option = permission.options.find((candidate) => candidate.kind === kind) ?? permission.options.find((candidate) => candidate.kind === 'allow_once');
      if (option && session.answerPermission(permission.requestId, option.optionId)) answered.push(`${asking.toolKind}:${option.kind}`);
    }, 20);
    t.after(() => clearInterval(answering));
    await session.prompt('Create a file, edit one, run a command and read the notes');
    clearInterval(answering);
    assert.equal(readFileSync(created, 'utf8'), 'brand new\n');
    assert.match(readFileSync(existing, 'utf8'), /changed by claude/);
    assert.ok(answered.includes('execute:allow_always'), `the command was allowed always: ${answered.join(', ')}`);
    const settings = join(workspace, '.claude', 'settings.local.json');
    assert.ok(existsSync(settings), 'Claude Code kept the grant inside the project');

    const { report, own } = await reportOf(session, frames.frames(), ledger, workspace);
    for (const method of ['fs/read_text_file', 'fs/write_text_file', 'terminal/create']) {
      assert.equal(calls(report, method), 0, `${method} was never called`);
      assert.equal(sentByAgent(own, method), 0);
    }
    assert.ok(report.clientMethods.find((use) => use.method === 'fs/write_text_file')?.advertised, 'although fs/* was offered');
    const onDisk = report.files.filter((file) => file.arrival === 'disk').map((file) => file.path).sort();
    assert.deepEqual(onDisk, [created, existing].sort(), 'two files written to disk by the agent itself');
    assert.ok(report.metaKeys.some((key) => key.name === 'terminal_info' || key.name === 'terminal_output'), `a display terminal via _meta: ${JSON.stringify(report.metaKeys)}`);
    assert.ok(report.metaKeys.some((key) => key.name === 'claudeCode'));
    const usage = report.updateKinds.find((kind) => kind.name === 'usage_update');
    assert.ok(usage && usage.count === own.filter((frame) => frame.text.includes('"sessionUpdate":"usage_update"')).length, 'usage updates, counted as they came');
    const asked = sentByAgent(own, 'session/request_permission');
    assert.equal(calls(report, 'session/request_permission'), asked);
    const byKind = Object.fromEntries(report.permissions.map((row) => [row.kind, row]));
    assert.equal(byKind.edit?.toolCalls, 2);
    assert.equal(byKind.edit?.asked, 2, 'both edits asked');
    assert.equal(byKind.execute?.asked, 1, 'the command asked');
    assert.equal(byKind.read?.asked, 0, 'the read did not ask');
    assert.equal(report.permissions.reduce((sum, row) => sum + row.asked, 0), asked);
    assert.ok(report.silentReads.some((read) => read.paths.includes(inside)), `the read inside the workspace is a silent read: ${JSON.stringify(report.silentReads)}`);
    const kept = report.projectRules.find((file) => file.path === settings);
    assert.ok(kept?.allow.some((rule) => rule.startsWith('Bash(') && rule.includes('node')), `the kept grant is in the report: ${JSON.stringify(report.projectRules)}`);
    assert.match(report.summary, /^Claude Code wrote 2 files to disk itself, read 1 file without asking, asked \d+ times/);
  });
});

describe('the fidelity report of real Gemini CLI, which goes through the editor', () => {
  test('fs/read_text_file and fs/write_text_file counted as they came, no usage updates, session load declared and its real outcome', { timeout: 300_000 }, async (t) => {
    const agent = await startScriptedRealAgent(startGeminiModelServer, geminiAgentSpec);
    const { model, spec } = agent;
    const workspace = spec.cwd;
    const { session, ledger, frames } = reviewedSession(definitionFromSpec(spec), workspace);
    const again = reviewedSession(definitionFromSpec(spec), workspace);
    endAfterTest(t, agent, [session, again.session]);
    const existing = join(workspace, 'app.ts');
    writeFileSync(existing, 'export const greeting = "hello";\n');
    const created = join(workspace, 'todo.md');
    model.enqueue(
      { toolUses: [{ name: 'write_file', input: { file_path: created, content: '# Todo\n' } }] },
      { toolUses: [{ name: 'replace', input: { file_path: existing, instruction: 'Greet the world', old_string: '"hello"', new_string: '"hello, world"' } }] },
      { text: 'Both done.' },
    );
    await allowingPermissions(session, session.prompt('Create a todo file and greet the world'));
    assert.equal(readFileSync(created, 'utf8'), '# Todo\n');
    assert.match(readFileSync(existing, 'utf8'), /hello, world/);
    const sessionId = session.currentSessionId;
    assert.ok(sessionId);
    await session.stopAgent();

    // The same session asked back by load, through the frames of one window.
    const loaded = await again.session.openExisting({ kind: 'load', sessionId });
    // One window's frames: both connections' in the order they came.
    const window = [...frames.frames(), ...again.frames.frames()].sort((a, b) => a.at - b.at);
    const { report, own } = await reportOf(session, window, ledger, workspace);
    const reads = sentByAgent(own, 'fs/read_text_file');
    const writes = sentByAgent(own, 'fs/write_text_file');
    assert.ok(reads >= 1, 'Gemini read through the editor');
    assert.equal(writes, 2, 'both changes were written through the editor');
    assert.equal(calls(report, 'fs/read_text_file'), reads);
    assert.equal(calls(report, 'fs/write_text_file'), writes);
    assert.equal(report.clientMethods.find((use) => use.method === 'fs/write_text_file')?.succeeded, writes);
    assert.deepEqual(report.files.filter((file) => file.arrival === 'editor').map((file) => file.path).sort(), [created, existing].sort());
    assert.ok(!report.updateKinds.some((kind) => kind.name === 'usage_update'), 'no usage updates');
    assert.ok(!own.some((frame) => frame.text.includes('"usage_update"')));
    const load = report.capabilities.find((capability) => capability.capability === 'loadSession');
    assert.equal(load?.declared, true, 'session load is advertised');
    const loadFrames = own.filter((frame) => frame.direction === 'out' && frame.text.includes('"method":"session/load"'));
    assert.equal(load?.calls, loadFrames.length);
    assert.equal(load?.calls, 1);
    assert.equal(load?.succeeded, loaded ? 1 : 0, 'the outcome as the agent answered it');
    assert.equal(load?.failed, loaded ? 0 : 1);
    if (!loaded) assert.ok(load?.lastError, 'the failure says why');
  });
});
