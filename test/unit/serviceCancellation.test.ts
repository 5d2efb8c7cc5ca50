/**
 * Cancellation reaches the editor services: an agent that gives up on a request
 * (`$/cancel_request`, its AbortSignal) while the user is still being asked gets "cancelled",
 * and nothing is written or run for it, whatever the user answers afterwards.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { TerminalDisplays } from '../../src/terminals/terminalDisplays';
import { TerminalService } from '../../src/terminals/terminalService';
import { silentLogger } from '../../src/util/logger';
import { acpTerminalPort } from '../../src/workspace/acpV1Ports';
import { fsSandboxEachTest } from '../support/fsSandbox';
import { editorFsService } from '../support/pathEscapeCases';

const sandbox = fsSandboxEachTest('tandem-cancel-');

/** A question to the user that stays open until `answer` is called. */
function pendingQuestion() {
  let answer: (yes: boolean) => void = () => undefined;
  let heard: () => void = () => undefined;
  const asked = new Promise<void>((resolve) => {
    heard = resolve;
  });
  const ask = () => new Promise<boolean>((resolve) => {
    answer = resolve;
    heard();
  });
  return { ask, asked, answer: (yes: boolean) => answer(yes) };
}

describe('a request cancelled while the user is asked', () => {
  test('a write to a file that controls what runs: cancelled, and the yes that comes after writes nothing', async () => {
    const hook = join(sandbox.workspace, '.git', 'hooks', 'pre-commit');
    const question = pendingQuestion();
    const fs = editorFsService({ ...sandbox, decisions: { allowExecutionControlWrite: () => question.ask() } });
    const cancel = new AbortController();
    const write = fs.writeTextFile({ sessionId: 's', path: hook, content: '#!/bin/sh\necho hi\n' }, cancel.signal);
    await question.asked;
    cancel.abort();
    question.answer(true);
    await assert.rejects(write, (error: { code?: number }) => error.code === -32800);
    assert.equal(existsSync(hook), false);
    assert.deepEqual(sandbox.recorded, []);
  });

  test('a write over the user\'s newer text: cancelled, and the file keeps the user\'s text', async () => {
    const file = join(sandbox.workspace, 'notes.txt');
    writeFileSync(file, 'first\n');
    const question = pendingQuestion();
    const fs = editorFsService({ ...sandbox, decisions: { overwriteUserChanges: () => question.ask() } });
    await fs.readTextFile({ sessionId: 's', path: file });
    writeFileSync(file, 'the user wrote this\n');
    const cancel = new AbortController();
    const write = fs.writeTextFile({ sessionId: 's', path: file, content: 'agent text\n' }, cancel.signal);
    await question.asked;
    cancel.abort();
    question.answer(true);
    await assert.rejects(write, (error: { code?: number }) => error.code === -32800);
    assert.equal(readFileSync(file, 'utf8'), 'the user wrote this\n');
  });

  test('a command in a folder outside: cancelled, and the yes that comes after runs nothing', async () => {
    const marker = join(sandbox.outside, 'ran.txt');
    const question = pendingQuestion();
    const displays = new TerminalDisplays();
    const service = new TerminalService({ cwd: sandbox.workspace, roots: () => [sandbox.workspace], displays, logger: silentLogger, allowCwdOutsideRoots: () => question.ask() });
    const terminals = acpTerminalPort(service);
    const cancel = new AbortController();
    const create = terminals.create({ sessionId: 's', command: process.execPath, args: ['-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, 'x')`], cwd: sandbox.outside }, cancel.signal);
    await question.asked;
    cancel.abort();
    question.answer(true);
    await assert.rejects(create, (error: { code?: number }) => error.code === -32800);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(existsSync(marker), false);
    service.dispose();
    displays.dispose();
  });
});
