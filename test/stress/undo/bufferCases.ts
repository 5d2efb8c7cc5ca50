/**
 * Files for the trip through a real VS Code buffer: line-ending mixes, lone CR, BOMs, no final
 * newline, non-ASCII and emoji, empty and new files. The agent's text is what an agent writes
 * after reading the file: its own lines with the terminators it read, new lines with LF, no BOM.
 * What the disk must hold afterwards is worked out here: undo gives back the exact bytes from
 * before; keep gives the agent's text in the file's shape (its BOM, and CRLF when CRLF is the
 * file's line ending), which is what the client promises for writes.
 */
import { conformTo, decodeText, shapeOf } from '../../../src/fs/textContent';
import type { Random } from '../../support/reviewStressCases';

export type Decision = 'keep' | 'undo';

export interface BufferCase {
  /** Shape and edit, for the detail lines. */
  name: string;
  /** Relative to the workspace folder. */
  path: string;
  /** null: the agent creates the file. */
  before: Buffer | null;
  agentText: string;
  decision: Decision;
}

const WORDS = ['alpha', 'beta', 'gamma', 'café', 'naïve', '日本語', '🙂', '👩‍💻', 'e\u0301', '}', '  return x;', '\t#', 'ünïcödé'];

function line(random: Random, index: number): string {
  return `${index}: ${Array.from({ length: 1 + random.int(4) }, () => random.pick(WORDS)).join(' ')}`;
}

function lines(random: Random, count: number, eol: (index: number) => string, last = true): string {
  const text = Array.from({ length: count }, (_, index) => `${line(random, index)}${eol(index)}`).join('');
  return last ? text : text.replace(/(\r\n|\r|\n)$/, '');
}

/** The original file's text by shape; BOMs are U+FEFF at the start. */
const SHAPES: [name: string, text: (random: Random) => string | null][] = [
  ['LF', (random) => lines(random, 8 + random.int(20), () => '\n')],
  ['CRLF', (random) => lines(random, 8 + random.int(20), () => '\r\n')],
  ['mixed EOL, mostly LF', (random) => lines(random, 8 + random.int(20), (index) => (index % 3 === 1 ? '\r\n' : '\n'))],
  ['mixed EOL, mostly CRLF', (random) => lines(random, 8 + random.int(20), (index) => (index % 3 === 1 ? '\n' : '\r\n'))],
  ['lone CR inside LF', (random) => lines(random, 8 + random.int(20), (index) => (index === 2 ? '\r' : '\n'))],
  ['lone CR inside CRLF', (random) => lines(random, 8 + random.int(20), (index) => (index === 3 ? '\r' : '\r\n'))],
  ['CR only', (random) => lines(random, 8 + random.int(10), () => '\r')],
  ['BOM + CRLF', (random) => `\uFEFF${lines(random, 8 + random.int(20), () => '\r\n')}`],
  ['BOM + LF', (random) => `\uFEFF${lines(random, 8 + random.int(20), () => '\n')}`],
  ['BOM + CRLF, no final newline', (random) => `\uFEFF${lines(random, 8 + random.int(20), () => '\r\n', false)}`],
  ['no final newline', (random) => lines(random, 8 + random.int(20), () => '\n', false)],
  ['CRLF, no final newline', (random) => lines(random, 8 + random.int(20), () => '\r\n', false)],
  ['one line, no newline', (random) => line(random, 0)],
  ['empty file', () => ''],
  ['only newlines', () => '\n\n\n'],
  ['new file', () => null],
];

/** Lines with the terminator each ends with (CRLF, LF or lone CR), the last possibly without. */
function splitLines(text: string): string[] {
  return text.match(/[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$/g) ?? [];
}

const EDITS: [name: string, edit: (random: Random, lines: string[]) => string[]][] = [
  ['replace a line', (random, all) => replaceAt(all, random.int(Math.max(1, all.length)), 1, [`changed ${random.pick(WORDS)}\n`])],
  ['insert lines', (random, all) => replaceAt(all, random.int(all.length + 1), 0, [`new ${random.pick(WORDS)}\n`, `new 🙂 ${random.pick(WORDS)}\n`])],
  ['delete lines', (random, all) => (all.length > 2 ? replaceAt(all, random.int(all.length - 1), 2, []) : [...all, 'added\n'])],
  ['append to the last line', (_random, all) => [...all.slice(0, -1), `${(all.at(-1) ?? '').replace(/(\r\n|\r|\n)$/, '')} and more${/(\r\n|\r|\n)$/.exec(all.at(-1) ?? '')?.[0] ?? ''}`]],
  ['add a final line without newline', (_random, all) => [...all, 'tail 👩‍💻 without newline']],
  ['rewrite all', (random, all) => all.map((_, index) => `${line(random, index)} rewritten\n`).concat(all.length === 0 ? ['fresh\n'] : [])],
];

function replaceAt(all: string[], start: number, count: number, inserted: string[]): string[] {
  return [...all.slice(0, start), ...inserted, ...all.slice(start + count)];
}

/** `count` cases, cycling through every shape and edit so each pairing comes up. */
export function bufferCases(random: Random, count: number, prefix: string): BufferCase[] {
  const cases: BufferCase[] = [];
  for (let index = 0; index < count; index++) {
    const [shapeName, shape] = SHAPES[index % SHAPES.length] as (typeof SHAPES)[number];
    const [editName, edit] = EDITS[Math.floor(index / SHAPES.length + random.int(EDITS.length)) % EDITS.length] as (typeof EDITS)[number];
    const beforeText = shape(random);
    const read = (beforeText ?? '').replace(/^\uFEFF/, '');
    let agentText = edit(random, splitLines(read)).join('');
    if (agentText === read) agentText += 'changed\n';
    const decision: Decision = random.chance(0.5) ? 'keep' : 'undo';
    const path = `${prefix}-${String(index).padStart(3, '0')}.txt`;
    cases.push({ name: `${shapeName} / ${editName}`, path, before: beforeText === null ? null : Buffer.from(beforeText, 'utf8'), agentText, decision });
  }
  return cases;
}

/** The bytes the file must have after the decision; null: it must not exist. */
export function expectedBytes(item: BufferCase, decision: Decision): Buffer | null {
  if (decision === 'undo') return item.before;
  if (item.before === null) return Buffer.from(item.agentText, 'utf8');
  return Buffer.from(conformTo(shapeOf(decodeText(item.before)), item.agentText), 'utf8');
}
