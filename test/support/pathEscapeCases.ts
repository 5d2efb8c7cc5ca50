import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { EditorFsService, type FsDecisions } from '../../src/files/fileService';
import type { FsPort } from '../../src/acp/clientPorts';
import { acpFsPort } from '../../src/workspace/acpV1Ports';
import { type DocumentStore } from '../../src/files/documents';
import { silentLogger } from '../../src/util/logger';
import { DiskBackedDocuments } from './memoryDocuments';

/**
 * Attempts to make `fs/*` touch a file outside the workspace without the user's yes, as data, and
 * a runner that plays each against an EditorFsService built as the unit tests build it. The user
 * never says yes here, so any outside content served, or any write landing outside, is an escape.
 */

export interface FsServiceSetup {
  workspace: string;
  documents: DocumentStore;
  /** Every question about a path outside the workspace, as `operation path`. */
  asked: string[];
  recorded: { path: string; before: string | null; after: string | null }[];
  /** The user's answers; unless given, "no" to outside paths and "keep mine" to conflicts. */
  decisions?: Partial<FsDecisions>;
  missingFileReadsAsEmpty?: boolean;
}

/** The files service as an ACP agent reaches it: `fs/*` through the ACP v1 adapter. */
export function editorFsService(setup: FsServiceSetup): FsPort {
  return acpFsPort(new EditorFsService({
    cwd: setup.workspace,
    roots: () => [setup.workspace],
    documents: setup.documents,
    decisions: {
      allowOutsideRoots: async (path, operation) => {
        setup.asked.push(`${operation} ${path}`);
        return false;
      },
      overwriteUserChanges: async () => false,
      allowExecutionControlWrite: async (path) => {
        setup.asked.push(`execution-control ${path}`);
        return false;
      },
      ...setup.decisions,
    },
    changes: { record: (path, change) => setup.recorded.push({ path, before: change.before, after: change.after }) },
    currentEditToolCall: () => undefined,
    logger: silentLogger,
  }), () => setup.missingFileReadsAsEmpty ?? false);
}

/** Every file the cases make inside the workspace holds this; anything served without it came from outside. */
export const INSIDE_MARK = 'INSIDE-THE-WORKSPACE';
const SECRET = 'OUTSIDE-SECRET\n';

export interface EscapeLayout {
  root: string;
  /** The session's only root; its name is not ASCII, so Unicode forms of it can be tried. */
  workspace: string;
  /** Folders outside the workspace, each holding secret.txt: one apart, and look-alikes of the workspace's name. */
  outside: string;
  prefixSibling: string;
  caseSibling: string;
  nfdSibling: string;
}

export interface PathEscapeCase {
  name: string;
  operation: 'read' | 'write';
  /** Builds what the case needs (names made from `tag` are the case's own) and returns the path the agent sends. */
  prepare(layout: EscapeLayout, tag: string): string;
  /** The user changed the file after the agent read it; this runs while they are asked about it, and they then say "use the agent's version". */
  whileAsked?(layout: EscapeLayout, tag: string): void;
  /** The case names a pipe: a stall of the host is what it tries. */
  pipe?: string;
}

function makeLayout(): EscapeLayout {
  const root = mkdtempSync(join(tmpdir(), 'tandem-escape-'));
  const workspace = join(root, 'ws-caf\u00e9');
  const layout = {
    root,
    workspace,
    outside: join(root, 'outside'),
    prefixSibling: `${workspace}2`,
    caseSibling: join(root, 'WS-CAF\u00c9'),
    nfdSibling: join(root, 'ws-cafe\u0301'),
  };
  mkdirSync(join(workspace, 'dir'), { recursive: true });
  writeFileSync(join(workspace, 'notes.txt'), `${INSIDE_MARK}\n`);
  for (const dir of [layout.outside, layout.prefixSibling, layout.caseSibling, layout.nfdSibling]) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'secret.txt'), SECRET);
  }
  return layout;
}

type Trick = { name: string; path(layout: EscapeLayout, file: string, tag: string): string };

const at = (layout: EscapeLayout, ...parts: string[]) => join(layout.workspace, ...parts);

function linked(target: string, link: string): string {
  symlinkSync(target, link);
  return link;
}

/** Ways to name a file in the outside folder; each is tried as a read of secret.txt and a write of a new file. */
const namingTricks: Trick[] = [
  { name: '.. relative to the cwd', path: (l, file) => `../outside/${file}` },
  { name: '.. in an absolute path', path: (l, file) => `${l.workspace}/../outside/${file}` },
  { name: 'absolute path outside', path: (l, file) => join(l.outside, file) },
  { name: '.. climbing out of a deeper folder', path: (l, file) => `${l.workspace}/dir/a/../../../outside/${file}` },
  { name: 'many .. past the root', path: (l, file) => `${'../'.repeat(40)}${relative('/', l.outside)}/${file}` },
  { name: 'doubled slashes around ..', path: (l, file) => `${l.workspace}//..//outside//${file}` },
  { name: '. segments around ..', path: (l, file) => `${l.workspace}/./.././outside/./${file}` },
  { name: 'a trailing slash', path: (l, file) => `${join(l.outside, file)}/` },
  { name: 'a sibling folder sharing the name as prefix', path: (l, file) => join(l.prefixSibling, file) },
  { name: 'the prefix sibling reached by ..', path: (l, file) => `${l.workspace}/../${basename(l.prefixSibling)}/${file}` },
  { name: 'the workspace name in another case', path: (l, file) => join(l.caseSibling, file) },
  { name: 'the workspace name in Unicode NFD', path: (l, file) => join(l.nfdSibling, file) },
  { name: 'a file URI', path: (l, file) => pathToFileURL(join(l.outside, file)).href },
  { name: 'a file URI with %2e%2e', path: (l, file) => `${pathToFileURL(l.workspace).href}/%2e%2e/outside/${file}` },
  { name: 'a FILE:// URI in capitals', path: (l, file) => `FILE://${join(l.outside, file)}` },
  { name: 'a file://localhost URI', path: (l, file) => `file://localhost${pathToFileURL(join(l.outside, file)).pathname}` },
  { name: 'a file URI of another host', path: (l, file) => `file://attacker.example${pathToFileURL(join(l.outside, file)).pathname}` },
  { name: 'a file URI with an encoded slash', path: (l, file) => `${pathToFileURL(l.workspace).href}/..%2Foutside/${file}` },
  { name: 'a NUL byte before ..', path: (l, file) => `${at(l, 'notes.txt')}\0/../../outside/${file}` },
  { name: 'a file link out', path: (l, file, tag) => linked(join(l.outside, file), at(l, `${tag}-link`)) },
  { name: 'a relative file link out', path: (l, file, tag) => linked(`../outside/${file}`, at(l, `${tag}-rel`)) },
  { name: 'a chain of links out', path: (l, file, tag) => linked(linked(join(l.outside, file), at(l, `${tag}-b`)), at(l, `${tag}-a`)) },
  { name: 'a folder link out', path: (l, file, tag) => join(linked(l.outside, at(l, `${tag}-dir`)), file) },
  { name: 'a nested relative folder link out', path: (l, file, tag) => join(linked('../../outside', at(l, 'dir', `${tag}-up`)), file) },
  { name: 'a link to the parent folder', path: (l, file, tag) => join(linked('..', at(l, `${tag}-parent`)), 'outside', file) },
  { name: 'a link to / then the outside path', path: (l, file, tag) => join(linked('/', at(l, `${tag}-root`)), relative('/', l.outside), file) },
  { name: 'a link to . then ..', path: (l, file, tag) => `${linked('.', at(l, `${tag}-self`))}/../outside/${file}` },
];

/** Names that must stay harmless whatever they look like: inside, unusable, or not files. */
const otherCases: PathEscapeCase[] = [
  { name: 'a link to a missing file inside (write)', operation: 'write', prepare: (l, tag) => linked(at(l, `${tag}-missing.txt`), at(l, tag)) },
  { name: 'a link loop (read)', operation: 'read', prepare: (l, tag) => (linked(at(l, `${tag}-b`), at(l, `${tag}-a`)), linked(at(l, `${tag}-a`), at(l, `${tag}-b`)), at(l, `${tag}-a`, 'x')) },
  { name: 'a dangling folder link in a parent (write)', operation: 'write', prepare: (l, tag) => join(linked(join(l.outside, `${tag}-gone`), at(l, tag)), 'deeper', 'new.txt') },
  { name: '~ is not the home folder (write)', operation: 'write', prepare: () => `~/.${'bashrc'}` },
  { name: 'backslashes are names on this system (read)', operation: 'read', prepare: () => '..\\outside\\secret.txt' },
  { name: 'fullwidth dots are names (read)', operation: 'read', prepare: () => '\uff0e\uff0e/outside/secret.txt' },
  { name: '/proc/self/environ (read)', operation: 'read', prepare: () => '/proc/self/environ' },
  { name: '/dev/zero (read)', operation: 'read', prepare: () => '/dev/zero' },
  { name: '/dev/stdin (read)', operation: 'read', prepare: () => '/dev/stdin' },
  { name: 'a link to /dev/urandom (read)', operation: 'read', prepare: (l, tag) => linked('/dev/urandom', at(l, tag)) },
  { name: 'a link to /dev/null (write)', operation: 'write', prepare: (l, tag) => linked('/dev/null', at(l, tag)) },
  { name: 'the workspace folder itself (read)', operation: 'read', prepare: (l) => l.workspace },
  { name: 'a folder inside (write)', operation: 'write', prepare: (l) => at(l, 'dir') },
  { name: 'a 1 GB sparse file inside (read)', operation: 'read', prepare: (l, tag) => (writeFileSync(at(l, tag), INSIDE_MARK), truncateSync(at(l, tag), 1024 ** 3), at(l, tag)) },
  { name: 'a socket inside (read)', operation: 'read', prepare: (l, tag) => socketAt(at(l, `${tag}.sock`)) },
  ...(['read', 'write'] as const).map((operation): PathEscapeCase => ({ name: `a FIFO inside (${operation})`, operation, pipe: 'fifo', prepare: (l, tag) => fifoAt(at(l, `${tag}.fifo`)) })),
  { name: 'a link to a FIFO inside (read)', operation: 'read', pipe: 'fifo', prepare: (l, tag) => linked(fifoAt(at(l, `${tag}.fifo`)), at(l, tag)) },
  {
    name: 'a file link swapped out while the user is asked (write)',
    operation: 'write',
    prepare: (l, tag) => linked(inside(at(l, `${tag}-real.txt`)), at(l, tag)),
    whileAsked: (l, tag) => swapLink(join(l.outside, 'secret.txt'), at(l, tag)),
  },
  {
    name: 'a folder swapped for a link out while the user is asked (write)',
    operation: 'write',
    prepare: (l, tag) => (mkdirSync(at(l, tag)), inside(at(l, tag, 'secret.txt'))),
    whileAsked: (l, tag) => (renameSync(at(l, tag), at(l, `${tag}-away`)), symlinkSync(l.outside, at(l, tag))),
  },
  {
    name: 'a file link swapped to a missing outside file while the user is asked (write)',
    operation: 'write',
    prepare: (l, tag) => linked(inside(at(l, `${tag}-real.txt`)), at(l, tag)),
    whileAsked: (l, tag) => swapLink(join(l.outside, `${tag}-new.txt`), at(l, tag)),
  },
  {
    name: 'a file replaced by a FIFO while the user is asked (write)',
    operation: 'write',
    pipe: 'fifo',
    prepare: (l, tag) => inside(at(l, tag)),
    whileAsked: (l, tag) => (rmSync(at(l, tag)), fifoAt(at(l, tag))),
  },
];

function inside(path: string): string {
  writeFileSync(path, `${INSIDE_MARK}\n`);
  return path;
}

function swapLink(target: string, link: string): void {
  symlinkSync(target, `${link}.next`);
  renameSync(`${link}.next`, link);
}

function fifoAt(path: string): string {
  execFileSync('mkfifo', [path]);
  return path;
}

/** A Unix socket file stays behind when its process exits without closing the server. */
function socketAt(path: string): string {
  execFileSync(process.execPath, ['-e', `require('net').createServer().listen(${JSON.stringify(path)}, () => process.exit(0))`]);
  return path;
}

export const pathEscapeCases: readonly PathEscapeCase[] = [
  ...namingTricks.flatMap((trick): PathEscapeCase[] => [
    { name: `${trick.name} (read)`, operation: 'read', prepare: (l, tag) => trick.path(l, 'secret.txt', tag) },
    { name: `${trick.name} (write)`, operation: 'write', prepare: (l, tag) => trick.path(l, `${tag}-new.txt`, tag) },
  ]),
  ...otherCases,
];

export type EscapeVerdict = 'refused' | 'served-inside' | 'escaped' | 'stalled';

export interface PathEscapeOutcome {
  name: string;
  operation: 'read' | 'write';
  verdict: EscapeVerdict;
  /** The user was asked about a path outside the workspace (and said no). */
  asked: boolean;
  ms: number;
  /** The error the agent got, or what was served or written where. */
  detail: string;
}

export interface RacingReads {
  reads: number;
  servedOutside: number;
  servedInside: number;
  refused: number;
}

export interface PathEscapeReport {
  tried: number;
  /** Served or written outside without the user's yes. */
  escaped: PathEscapeOutcome[];
  /** Took longer than the stall bound: a pipe or device held the host. */
  stalled: PathEscapeOutcome[];
  outcomes: PathEscapeOutcome[];
  racing: RacingReads;
}

export interface PathEscapeOptions {
  cases?: readonly PathEscapeCase[];
  /** Reads while a link and a folder are swapped between inside and outside targets by another process. */
  racingReads?: number;
  /** A case slower than this stalled (and a pipe it names is then opened from another process to free the host). */
  stallMs?: number;
  signal?: AbortSignal;
}

/** Every case, then the racing reads, each in a fresh layout under the temp folder. */
export async function runPathEscapeCases(options: PathEscapeOptions = {}): Promise<PathEscapeReport> {
  const layout = makeLayout();
  try {
    const outcomes: PathEscapeOutcome[] = [];
    for (const [index, escape] of (options.cases ?? pathEscapeCases).entries()) {
      if (options.signal?.aborted) break;
      outcomes.push(await runCase(layout, escape, `case${index}`, options.stallMs ?? 2000));
    }
    const racing = await racingReads(layout, options.racingReads ?? 200, options.signal);
    return {
      tried: outcomes.length + racing.reads,
      escaped: outcomes.filter((outcome) => outcome.verdict === 'escaped'),
      stalled: outcomes.filter((outcome) => outcome.verdict === 'stalled'),
      outcomes,
      racing,
    };
  } finally {
    rmSync(layout.root, { recursive: true, force: true });
  }
}

async function runCase(layout: EscapeLayout, escape: PathEscapeCase, tag: string, stallMs: number): Promise<PathEscapeOutcome> {
  const documents = new DiskBackedDocuments([layout.workspace]);
  const setup: FsServiceSetup = { workspace: layout.workspace, documents, asked: [], recorded: [] };
  const path = escape.prepare(layout, tag);
  const before = outsideFiles(layout);
  const content = `${INSIDE_MARK} written by ${tag}\n`;
  const started = Date.now();
  const release = escape.pipe ? pipeReleaser(layout.workspace, stallMs) : undefined;
  let result: { ok: true; text: string } | { ok: false; error: string };
  try {
    result = { ok: true, text: await attempt(setup, documents, escape, path, content, () => escape.whileAsked?.(layout, tag)) };
  } catch (error) {
    result = { ok: false, error: error instanceof Error ? error.message : String(error) };
  } finally {
    release?.kill();
  }
  const ms = Date.now() - started;
  const outcome = { name: escape.name, operation: escape.operation, asked: setup.asked.length > 0, ms };
  if (ms > stallMs) return { ...outcome, verdict: 'stalled', detail: `took ${ms} ms` };
  const changedOutside = changedFiles(before, outsideFiles(layout));
  if (changedOutside.length > 0) return { ...outcome, verdict: 'escaped', detail: `changed outside: ${changedOutside.join(', ')}` };
  if (!result.ok) return { ...outcome, verdict: 'refused', detail: result.error };
  if (escape.operation === 'read') {
    return { ...outcome, verdict: result.text.includes(INSIDE_MARK) ? 'served-inside' : 'escaped', detail: `served ${JSON.stringify(result.text.slice(0, 60))}` };
  }
  const landed = filesHolding(layout.workspace, content);
  return { ...outcome, verdict: landed.length > 0 ? 'served-inside' : 'escaped', detail: landed.length > 0 ? `written to ${landed.join(', ')}` : 'written, but not into the workspace' };
}

/** The read's content, or the write done (after the read and the user's edit the dialog is about). */
async function attempt(setup: FsServiceSetup, documents: DiskBackedDocuments, escape: PathEscapeCase, path: string, content: string, whileAsked: () => void): Promise<string> {
  if (escape.operation === 'read') return (await editorFsService(setup).readTextFile({ sessionId: 's', path })).content;
  if (!escape.whileAsked) {
    await editorFsService(setup).writeTextFile({ sessionId: 's', path, content });
    return content;
  }
  const fs = editorFsService({ ...setup, decisions: { overwriteUserChanges: async () => (whileAsked(), true) } });
  await fs.readTextFile({ sessionId: 's', path });
  documents.edit(path, `${INSIDE_MARK} the user's edit\n`);
  await fs.writeTextFile({ sessionId: 's', path, content });
  return content;
}

/**
 * Frees a host stalled on a pipe: after `stallMs`, another process keeps opening every pipe in
 * the folder for both reading and writing, which wakes an open blocked on either end.
 */
function pipeReleaser(folder: string, stallMs: number): ChildProcess {
  const script = `const fs = require('fs'), path = require('path'); const [folder, wait] = process.argv.slice(1);
setTimeout(() => setInterval(() => { for (const name of fs.readdirSync(folder)) { const p = path.join(folder, name);
  try { if (fs.lstatSync(p).isFIFO()) fs.closeSync(fs.openSync(p, fs.constants.O_RDWR | fs.constants.O_NONBLOCK)); } catch {} } }, 20), Number(wait));
setTimeout(() => process.exit(0), Number(wait) + 60000);`;
  return spawn(process.execPath, ['-e', script, folder, String(stallMs)], { stdio: 'ignore' });
}

/** Regular files anywhere under the layout but outside the workspace, with their content. */
function outsideFiles(layout: EscapeLayout): Map<string, string> {
  const files = new Map<string, string>();
  for (const dir of [layout.outside, layout.prefixSibling, layout.caseSibling, layout.nfdSibling]) {
    for (const path of regularFiles(dir)) files.set(path, readFileSync(path, 'utf8'));
  }
  return files;
}

function changedFiles(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...after].filter(([path, text]) => before.get(path) !== text).map(([path]) => path);
}

function filesHolding(dir: string, content: string): string[] {
  return regularFiles(dir).filter((path) => lstatSync(path).size < 1024 * 1024 && readFileSync(path, 'utf8') === content);
}

/** Regular files only, links not followed: a pipe or a link out is never opened by the check itself. */
function regularFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return regularFiles(path);
    return entry.isFile() ? [path] : [];
  });
}

/**
 * Another process swaps `swing` between a link to an inside file and one to the outside secret,
 * and the folder `flip` between a real folder and a link out, as fast as it can, while the reads run.
 */
async function racingReads(layout: EscapeLayout, reads: number, signal: AbortSignal | undefined): Promise<RacingReads> {
  const tally: RacingReads = { reads: 0, servedOutside: 0, servedInside: 0, refused: 0 };
  if (reads <= 0) return tally;
  const swing = at(layout, 'swing');
  const flip = at(layout, 'flip');
  mkdirSync(flip);
  inside(join(flip, 'secret.txt'));
  symlinkSync(at(layout, 'notes.txt'), swing);
  const swapper = startSwapper(layout, swing, flip);
  try {
    await new Promise<void>((resolve) => {
      swapper.stdout?.once('data', () => resolve());
      swapper.once('exit', () => resolve());
    });
    const setup: FsServiceSetup = { workspace: layout.workspace, documents: new DiskBackedDocuments([layout.workspace]), asked: [], recorded: [] };
    const fs = editorFsService(setup);
    const paths = [swing, join(flip, 'secret.txt')];
    while (tally.reads < reads && !signal?.aborted) {
      const batch = paths.flatMap((path) => [path, path]).slice(0, reads - tally.reads);
      tally.reads += batch.length;
      const results = await Promise.allSettled(batch.map((path) => fs.readTextFile({ sessionId: 's', path })));
      for (const result of results) {
        if (result.status === 'rejected') tally.refused++;
        else if (result.value.content.includes(INSIDE_MARK)) tally.servedInside++;
        else tally.servedOutside++;
      }
    }
  } finally {
    // Gone before the folder is removed: a swap still running would make that removal fail (ENOTEMPTY).
    const exited = swapper.exitCode !== null || swapper.signalCode !== null ? Promise.resolve() : new Promise((resolve) => swapper.once('exit', resolve));
    swapper.kill();
    await exited;
  }
  return tally;
}

function startSwapper(layout: EscapeLayout, swing: string, flip: string): ChildProcess {
  const script = `const fs = require('fs'); const [swing, inside, outside, flip, outsideDir] = process.argv.slice(1);
let out = false; let said = false; const end = Date.now() + 120000;
while (Date.now() < end) { out = !out;
  try { fs.symlinkSync(out ? outside : inside, swing + '.next'); fs.renameSync(swing + '.next', swing); } catch {}
  try { if (out) { fs.renameSync(flip, flip + '.real'); fs.symlinkSync(outsideDir, flip); } else { fs.unlinkSync(flip); fs.renameSync(flip + '.real', flip); } } catch {}
  if (!said) { said = true; process.stdout.write('swapping\\n'); } }`;
  return spawn(process.execPath, ['-e', script, swing, at(layout, 'notes.txt'), join(layout.outside, 'secret.txt'), flip, layout.outside], { stdio: ['ignore', 'pipe', 'ignore'] });
}
