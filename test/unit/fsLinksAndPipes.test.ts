import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, constants, existsSync, mkdirSync, openSync, readFileSync, renameSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeEach, describe, test } from 'node:test';
import type { FsDecisions } from '../../src/files/fileService';
import type { DocumentStore } from '../../src/files/documents';
import { fsSandboxEachTest } from '../support/fsSandbox';
import { editorFsService } from '../support/pathEscapeCases';

let fifos: string[] = [];
// Wakes anything a failing run left blocked on a pipe, so the test process can end.
const sandbox = fsSandboxEachTest('tandem-links-', () => {
  for (const path of fifos) closeSync(openSync(path, constants.O_RDWR | constants.O_NONBLOCK));
});

function service(decisions: Partial<FsDecisions> = {}, store: DocumentStore = poolReadingDocuments()) {
  return editorFsService({ ...sandbox, documents: store, decisions });
}

const yes: Partial<FsDecisions> = { allowOutsideRoots: async (path, operation) => (sandbox.asked.push(`${operation} ${path}`), true) };
const secret = () => join(sandbox.outside, 'secret.txt');
const read = (path: string, decisions: Partial<FsDecisions> = {}, store?: DocumentStore) => service(decisions, store).readTextFile({ sessionId: 's', path });
const write = (path: string, content: string, decisions: Partial<FsDecisions> = {}) => service(decisions).writeTextFile({ sessionId: 's', path, content });

function fifo(name: string): string {
  const path = join(sandbox.workspace, name);
  execFileSync('mkfifo', [path]);
  fifos.push(path);
  return path;
}

/** The test documents as the editor's: fs/* reads the disk itself, through the safe open. */
function poolReadingDocuments(): DocumentStore {
  return {
    openText: (path) => sandbox.documents.openText(path),
    codec: sandbox.documents.codec,
    write: (path, text) => sandbox.documents.write(path, text),
  };
}

/** Long enough for any loaded machine: only a read that blocks for good (a FIFO with no writer) gets near it. */
const HANG_GUARD_MS = 30_000;

async function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still waiting after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

beforeEach(() => {
  writeFileSync(join(sandbox.workspace, 'notes.txt'), 'inside\n');
  fifos = [];
});

describe('links whose target is missing', () => {
  test('a write through one is refused and creates nothing outside, even with the user\'s yes', async () => {
    symlinkSync(join(sandbox.outside, 'created.txt'), join(sandbox.workspace, 'new-link.txt'));
    symlinkSync(join(sandbox.outside, 'gone'), join(sandbox.workspace, 'gone-dir'));
    for (const decisions of [{}, yes]) {
      await assert.rejects(write(join(sandbox.workspace, 'new-link.txt'), 'planted\n', decisions), /which does not exist; files are never created through a link/);
      await assert.rejects(write(join(sandbox.workspace, 'gone-dir', 'sub', 'x.txt'), 'planted\n', decisions), /which does not exist/);
    }
    assert.equal(existsSync(join(sandbox.outside, 'created.txt')), false);
    assert.equal(existsSync(join(sandbox.outside, 'gone')), false);
    assert.deepEqual([sandbox.asked, sandbox.recorded, sandbox.documents.writes], [[], [], []]);
  });

  test('a read through one counts as outside: the user is asked', async () => {
    symlinkSync(join(sandbox.outside, 'later.txt'), join(sandbox.workspace, 'later.txt'));
    await assert.rejects(read(join(sandbox.workspace, 'later.txt')), /did not allow this read/);
    assert.match(sandbox.asked[0] ?? '', /later\.txt \(a link to .*outside\/later\.txt, which does not exist\)/);
  });
});

describe('check and use are one step', () => {
  test('a link swapped out after the check still serves the file that was checked', async () => {
    const current = join(sandbox.workspace, 'current.txt');
    symlinkSync(join(sandbox.workspace, 'notes.txt'), current);
    const swapping: DocumentStore = { ...poolReadingDocuments(), openText: () => void renameSwap(secret(), current) };
    assert.deepEqual(await read(current, {}, swapping), { content: 'inside\n' });
    assert.deepEqual(sandbox.asked, []);
  });

  test('a folder replaced by a link out after the check is refused, not served', async () => {
    mkdirSync(join(sandbox.workspace, 'dir'));
    writeFileSync(join(sandbox.workspace, 'dir', 'secret.txt'), 'inside\n');
    const swapping: DocumentStore = {
      ...poolReadingDocuments(),
      openText: () => {
        renameSync(join(sandbox.workspace, 'dir'), join(sandbox.workspace, 'dir-away'));
        symlinkSync(sandbox.outside, join(sandbox.workspace, 'dir'));
        return undefined;
      },
    };
    await assert.rejects(read(join(sandbox.workspace, 'dir', 'secret.txt'), {}, swapping), /changed while it was being opened/);
  });

  test('a link swapped out while the user is asked about their changes: nothing is written outside', async () => {
    const shared = join(sandbox.workspace, 'shared.txt');
    symlinkSync(join(sandbox.workspace, 'notes.txt'), shared);
    const decisions: Partial<FsDecisions> = { overwriteUserChanges: async () => (renameSwap(secret(), shared), true) };
    const fs = service(decisions);
    await fs.readTextFile({ sessionId: 's', path: shared });
    sandbox.documents.open.set(shared, 'inside\nthe user\'s line\n');
    await assert.rejects(fs.writeTextFile({ sessionId: 's', path: shared, content: 'agent\n' }), /now leads to .*outside\/secret\.txt instead of .*notes\.txt/);
    assert.equal(readFileSync(secret(), 'utf8'), 'top secret\n');
    assert.deepEqual([sandbox.recorded, sandbox.documents.writes], [[], []]);
  });

  test('a folder swapped for a link out while the editor encodes the text: nothing lands outside, and the agent hears it', async () => {
    const dir = join(sandbox.workspace, 'dir');
    mkdirSync(dir);
    const path = join(dir, 'secret.txt');
    const original = Buffer.from('caf\xe9\n', 'latin1');
    writeFileSync(path, original);
    const codec = sandbox.documents.codec;
    codec.configured.set(path, 'iso88591');
    const fs = service();
    await fs.readTextFile({ sessionId: 's', path });
    // The agent's text on its way to bytes: past the service's check, where the editor used to save the document by its path.
    codec.onEncode = (text) => {
      if (!text.startsWith('th')) return;
      codec.onEncode = () => undefined;
      renameSync(dir, `${dir}-away`);
      symlinkSync(sandbox.outside, dir);
    };
    await assert.rejects(fs.writeTextFile({ sessionId: 's', path, content: 'th\u00e9\n' }), /now leads to .*outside\/secret\.txt instead of .*dir\/secret\.txt .*so nothing was written/);
    assert.equal(readFileSync(secret(), 'utf8'), 'top secret\n');
    assert.deepEqual(readFileSync(join(`${dir}-away`, 'secret.txt')), original);
    assert.deepEqual(sandbox.recorded, []);
  });

  test('an open buffer is not served for a path that leads outside', async () => {
    sandbox.documents.open.set(secret(), 'unsaved secret\n');
    symlinkSync(secret(), join(sandbox.workspace, 'link.txt'));
    sandbox.documents.open.set(join(sandbox.workspace, 'link.txt'), 'unsaved through the link\n');
    await assert.rejects(read(secret()), /did not allow this read/);
    await assert.rejects(read(join(sandbox.workspace, 'link.txt')), /did not allow this read/);
    assert.equal(sandbox.asked.length, 2);
  });
});

function renameSwap(target: string, link: string): undefined {
  symlinkSync(target, `${link}.next`);
  renameSync(`${link}.next`, link);
  return undefined;
}

describe('pipes, sockets, devices and huge files', () => {
  // A FIFO with no writer blocks a read for good, so these reads ending at all is the proof;
  // how long the refusals take: bench/hostileInputs (fs.fifoRefusalsMs).
  test('four FIFO reads at once are refused and do not hold up a fifth read', async () => {
    const reads = ['a', 'b', 'c', 'd'].map((name) => read(fifo(`${name}.fifo`)));
    const fifth = read(join(sandbox.workspace, 'notes.txt'));
    const results = await within(HANG_GUARD_MS, Promise.allSettled([...reads, fifth]));
    for (const result of results.slice(0, 4)) {
      assert.equal(result.status, 'rejected');
      assert.match(String((result as PromiseRejectedResult).reason), /is a named pipe \(FIFO\), not a regular file/);
    }
    assert.deepEqual(results[4], { status: 'fulfilled', value: { content: 'inside\n' } });
  });

  test('a write naming a FIFO, or a link to one, is refused at once', async () => {
    const pipe = fifo('w.fifo');
    symlinkSync(pipe, join(sandbox.workspace, 'to-fifo'));
    await within(2000, assert.rejects(write(pipe, 'x'), /named pipe/));
    await within(2000, assert.rejects(write(join(sandbox.workspace, 'to-fifo'), 'x'), /named pipe/));
  });

  test('a socket, a folder, /dev/zero and /dev/null are refused, even with the user\'s yes', async () => {
    const socket = join(sandbox.workspace, 'agent.sock');
    const server: Server = createServer();
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    try {
      await assert.rejects(read(socket), /is a socket, not a regular file/);
      await assert.rejects(read(sandbox.workspace), /is a folder, not a regular file/);
      await within(2000, assert.rejects(read('/dev/zero', yes), /\/dev\/zero is a device, not a regular file/));
      await assert.rejects(read('/dev/null', yes), /is a device/);
      await assert.rejects(write('/dev/null', 'x', yes), /is a device/);
    } finally {
      server.close();
    }
  });

  // How long the refusal takes: bench/hostileInputs (fs.sparse1GBRefusalMs).
  test('a 1 GB sparse file is refused before a byte of it is read', async () => {
    const huge = join(sandbox.workspace, 'huge.log');
    writeFileSync(huge, 'x');
    truncateSync(huge, 1024 ** 3);
    const before = process.memoryUsage().rss;
    await within(HANG_GUARD_MS, assert.rejects(read(huge), /is 1024\.0 MB, over the 10 MB limit/));
    assert.ok(process.memoryUsage().rss - before < 100 * 1024 * 1024, 'memory grew by hundreds of MB');
  });
});

describe('paths that name no file, or name it in another way', () => {
  test('a NUL byte is refused with a clear error, without asking', async () => {
    await assert.rejects(read(`${join(sandbox.workspace, 'notes.txt')}\0/../../outside/secret.txt`), /names no file: it contains a NUL byte/);
    await assert.rejects(write(join(sandbox.workspace, 'a\0b'), 'x'), /NUL byte/);
    assert.deepEqual(sandbox.asked, []);
  });

  test('a file URI is the file it names, and one of another machine is refused', async () => {
    assert.deepEqual(await read(pathToFileURL(join(sandbox.workspace, 'notes.txt')).href), { content: 'inside\n' });
    await assert.rejects(read(pathToFileURL(secret()).href), /outside the workspace and the user did not allow/);
    await assert.rejects(read(`file://elsewhere${secret()}`), /file URI that names no file on this machine/);
    assert.equal(sandbox.asked.length, 1);
  });
});
