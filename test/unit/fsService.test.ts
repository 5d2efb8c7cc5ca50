import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { FsDecisions } from '../../src/files/fileService';
import type { FsPort } from '../../src/acp/clientPorts';
import { sliceLines } from '../../src/files/textContent';
import { quirksOf } from '../../src/acp/agentQuirks';
import { fsSandboxEachTest } from '../support/fsSandbox';
import { editorFsService } from '../support/pathEscapeCases';

const sandbox = fsSandboxEachTest('tandem-fs-');

function service(decisions: Partial<FsDecisions> = {}, missingFileReadsAsEmpty = false): FsPort {
  return editorFsService({ ...sandbox, decisions, missingFileReadsAsEmpty });
}

describe('fs/read_text_file', () => {
  test('an open buffer wins over the disk: unsaved text is what the agent reads', async () => {
    const file = join(sandbox.workspace, 'a.ts');
    writeFileSync(file, 'on disk\n');
    sandbox.documents.open.set(file, 'unsaved edit\n');
    assert.deepEqual(await service().readTextFile({ sessionId: 's', path: file }), { content: 'unsaved edit\n' });
  });

  test('for agents that need it (Gemini CLI), a missing file reads as empty text', async () => {
    assert.deepEqual(await service({}, true).readTextFile({ sessionId: 's', path: join(sandbox.workspace, 'new.txt') }), { content: '' });
    assert.equal(quirksOf({ name: 'gemini-cli', version: '0.61.0' }).missingFileReadsAsEmpty, true);
    assert.equal(quirksOf({ name: 'claude-agent-acp', version: '0.101.0' }).missingFileReadsAsEmpty, false);
    assert.equal(quirksOf(null).missingFileReadsAsEmpty, false);
  });

  test('line is 1-based, limit counts lines, past the end yields what exists', async () => {
    assert.equal(sliceLines('a\nb\nc\n', 2, 1), 'b\n');
    assert.equal(sliceLines('a\nb\nc', 3, 10), 'c');
    assert.equal(sliceLines('a\nb\n', 9, 2), '');
    const file = join(sandbox.workspace, 'lines.txt');
    writeFileSync(file, 'one\ntwo\nthree\n');
    assert.deepEqual(await service().readTextFile({ sessionId: 's', path: file, line: 2, limit: 2 }), { content: 'two\nthree\n' });
  });

  test('a missing file is "Resource not found", binary and huge files are clear errors', async () => {
    await assert.rejects(service().readTextFile({ sessionId: 's', path: join(sandbox.workspace, 'nope.txt') }), /Resource not found/);
    writeFileSync(join(sandbox.workspace, 'img.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 1]));
    await assert.rejects(service().readTextFile({ sessionId: 's', path: join(sandbox.workspace, 'img.png') }), /binary file/);
    writeFileSync(join(sandbox.workspace, 'big.txt'), Buffer.alloc(11 * 1024 * 1024, 97));
    await assert.rejects(service().readTextFile({ sessionId: 's', path: join(sandbox.workspace, 'big.txt') }), /over the 10 MB limit/);
  });
});

describe('paths outside the workspace', () => {
  test('../, absolute paths and symlinks out are never served without a yes', async () => {
    symlinkSync(sandbox.outside, join(sandbox.workspace, 'link'));
    const attempts = [join(sandbox.workspace, '..', 'outside', 'secret.txt'), join(sandbox.outside, 'secret.txt'), join(sandbox.workspace, 'link', 'secret.txt'), '../outside/secret.txt'];
    for (const path of attempts) {
      await assert.rejects(service().readTextFile({ sessionId: 's', path }), /outside the workspace and the user did not allow/);
    }
    await assert.rejects(service().writeTextFile({ sessionId: 's', path: join(sandbox.workspace, 'link', 'new.txt'), content: 'x' }), /did not allow this write/);
    assert.equal(sandbox.asked.length, 5);
    assert.match(sandbox.asked[2] ?? '', /link\/secret.txt \(really .*outside\/secret.txt\)/);
    assert.equal(readFileSync(join(sandbox.outside, 'secret.txt'), 'utf8'), 'top secret\n');
    assert.deepEqual(sandbox.recorded, []);
  });

  test('with the user\'s yes the path is served, once asked per path and operation', async () => {
    const fs = service({ allowOutsideRoots: async (path) => (sandbox.asked.push(path), true) });
    const path = join(sandbox.outside, 'secret.txt');
    assert.deepEqual(await fs.readTextFile({ sessionId: 's', path }), { content: 'top secret\n' });
    await fs.readTextFile({ sessionId: 's', path });
    assert.equal(sandbox.asked.length, 1);
  });
});

describe('fs/write_text_file', () => {
  test('creates the file and its folders, and records the change with no base', async () => {
    const file = join(sandbox.workspace, 'deep', 'er', 'new.md');
    await service().writeTextFile({ sessionId: 's', path: file, content: '# New\n' });
    assert.equal(readFileSync(file, 'utf8'), '# New\n');
    assert.deepEqual(sandbox.recorded, [{ path: file, before: null, after: '# New\n' }]);
  });

  test('keeps CRLF line endings and the BOM of the file it replaces', async () => {
    const file = join(sandbox.workspace, 'win.txt');
    writeFileSync(file, '\uFEFFone\r\ntwo\r\n');
    await service().writeTextFile({ sessionId: 's', path: file, content: 'one\nTWO\nthree\n' });
    assert.deepEqual(readFileSync(file), Buffer.from('\uFEFFone\r\nTWO\r\nthree\r\n'));
  });

  test('a user edit after the agent read is not clobbered unless the user says so', async () => {
    const file = join(sandbox.workspace, 'shared.ts');
    writeFileSync(file, 'v1\n');
    const keepMine = service();
    await keepMine.readTextFile({ sessionId: 's', path: file });
    sandbox.documents.open.set(file, 'v1\nuser line\n');
    await assert.rejects(keepMine.writeTextFile({ sessionId: 's', path: file, content: 'agent v2\n' }), /changed .* after you read it/);
    assert.equal(sandbox.documents.open.get(file), 'v1\nuser line\n');
    assert.deepEqual(sandbox.recorded, []);

    const overwrite = service({ overwriteUserChanges: async () => true });
    await overwrite.readTextFile({ sessionId: 's', path: file });
    sandbox.documents.open.set(file, 'v1\nuser line\nmore\n');
    await overwrite.writeTextFile({ sessionId: 's', path: file, content: 'agent v2\n' });
    assert.equal(sandbox.documents.open.get(file), 'agent v2\n');
    assert.deepEqual(sandbox.recorded, [{ path: file, before: 'v1\nuser line\nmore\n', after: 'agent v2\n' }]);
  });
});

describe('files that control what runs', () => {
  test('a write to a git hook, a task file or agent settings asks every time, and a no leaves the bytes as they were', async () => {
    const hook = join(sandbox.workspace, '.git', 'hooks', 'pre-commit');
    const tasks = join(sandbox.workspace, '.vscode', 'tasks.json');
    const claude = join(sandbox.workspace, '.claude', 'settings.local.json');
    mkdirSync(join(sandbox.workspace, '.vscode'), { recursive: true });
    writeFileSync(tasks, '{}\n');
    const fs = service();
    for (const path of [hook, tasks, claude]) {
      await assert.rejects(fs.writeTextFile({ sessionId: 's', path, content: 'echo pwned\n' }), /controls what runs/);
    }
    assert.deepEqual(sandbox.asked, [`execution-control ${hook}`, `execution-control ${tasks}`, `execution-control ${claude}`]);
    assert.equal(readFileSync(tasks, 'utf8'), '{}\n');
    assert.throws(() => readFileSync(hook), /ENOENT/);
    assert.deepEqual(sandbox.recorded, []);
  });

  test('with the user\'s yes the write lands, and the next write asks again', async () => {
    const tasks = join(sandbox.workspace, '.vscode', 'tasks.json');
    let questions = 0;
    const fs = service({ allowExecutionControlWrite: async () => (questions++, true) });
    await fs.writeTextFile({ sessionId: 's', path: tasks, content: '{ "version": "2.0.0" }\n' });
    await fs.writeTextFile({ sessionId: 's', path: tasks, content: '{ "version": "2.0.1" }\n' });
    assert.equal(questions, 2);
    assert.equal(readFileSync(tasks, 'utf8'), '{ "version": "2.0.1" }\n');
  });

  test('ordinary files, even with look-alike names, are not asked about', async () => {
    const fs = service();
    await fs.writeTextFile({ sessionId: 's', path: join(sandbox.workspace, 'src', 'git', 'config.ts'), content: 'x\n' });
    await fs.writeTextFile({ sessionId: 's', path: join(sandbox.workspace, 'docs', '.vscode-notes.md'), content: 'x\n' });
    assert.deepEqual(sandbox.asked, []);
  });
});
