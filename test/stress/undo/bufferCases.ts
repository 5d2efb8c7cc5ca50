/**
 * Files for the trip through a real VS Code buffer: line-ending mixes, lone CR, BOMs, no final
 * newline, non-ASCII and emoji, empty and new files. The agent's text is what an agent writes
 * after reading the file: its own lines with the terminators it read, new lines with LF, no BOM.
 * What the disk must hold afterwards is worked out here, from how each case was built: undo
 * gives back the exact bytes from before; keep leaves the lines the agent did not touch as they
 * were and gives the ones it wrote the file's shape.
 */
import { conformTo, shapeOf } from '../../../src/files/textContent';
import { split, type Random } from '../../support/reviewStressCases';

export type Decision = 'keep' | 'undo';

export interface BufferCase {
  /** Shape and edit, for the detail lines. */
  name: string;
  /** Relative to the workspace folder. */
  path: string;
  /** null: the agent creates the file. */
  before: Buffer | null;
  agentText: string;
  /** The bytes keeping the write must leave. */
  kept: Buffer;
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

/** A line of the agent's text (its terminator included), and whether it is one of the file's own lines left as read. */
interface AgentLine {
  text: string;
  untouched: boolean;
}

const added = (text: string): AgentLine => ({ text, untouched: false });
const ENDING = /(\r\n|\r|\n)$/;

const EDITS: [name: string, edit: (random: Random, lines: AgentLine[]) => AgentLine[]][] = [
  ['replace a line', (random, all) => replaceAt(all, random.int(Math.max(1, all.length)), 1, [added(`changed ${random.pick(WORDS)}\n`)])],
  ['insert lines', (random, all) => replaceAt(all, random.int(all.length + 1), 0, [added(`new ${random.pick(WORDS)}\n`), added(`new 🙂 ${random.pick(WORDS)}\n`)])],
  ['delete lines', (random, all) => (all.length > 2 ? replaceAt(all, random.int(all.length - 1), 2, []) : [...all, added('added\n')])],
  ['append to the last line', (_random, all) => [...all.slice(0, -1), added(`${(all.at(-1)?.text ?? '').replace(ENDING, '')} and more${ENDING.exec(all.at(-1)?.text ?? '')?.[0] ?? ''}`)]],
  ['add a final line without newline', (_random, all) => [...all, added('tail 👩‍💻 without newline')]],
  ['rewrite all', (random, all) => all.map((_, index) => added(`${line(random, index)} rewritten\n`)).concat(all.length === 0 ? [added('fresh\n')] : [])],
];

function replaceAt(all: AgentLine[], start: number, count: number, inserted: AgentLine[]): AgentLine[] {
  return [...all.slice(0, start), ...inserted, ...all.slice(start + count)];
}

/** A line without a terminator runs into the next one: together they are one edited line. */
function joined(lines: readonly AgentLine[]): AgentLine[] {
  const out: AgentLine[] = [];
  for (const next of lines) {
    const last = out.at(-1);
    if (last && !ENDING.test(last.text)) out[out.length - 1] = added(last.text + next.text);
    else out.push(next);
  }
  return out;
}

/**
 * What keeping the agent's write must leave: the file's own lines it left as read keep their
 * exact bytes; the lines it edited or added get the file's shape (BOM, and CRLF when that is the
 * file's line ending), as the client promises for writes.
 */
function keptText(beforeText: string | null, lines: readonly AgentLine[]): string {
  const agentText = lines.map((agentLine) => agentLine.text).join('');
  if (beforeText === null) return agentText;
  const shape = shapeOf(beforeText);
  const body = lines.map((agentLine) => (agentLine.untouched ? agentLine.text : conformTo({ bom: false, eol: shape.eol }, agentLine.text))).join('');
  return shape.bom ? `\uFEFF${body}` : body;
}

/** `count` cases, cycling through every shape and edit so each pairing comes up. */
export function bufferCases(random: Random, count: number, prefix: string): BufferCase[] {
  const cases: BufferCase[] = [];
  for (let index = 0; index < count; index++) {
    const [shapeName, shape] = SHAPES[index % SHAPES.length] as (typeof SHAPES)[number];
    const [editName, edit] = EDITS[Math.floor(index / SHAPES.length + random.int(EDITS.length)) % EDITS.length] as (typeof EDITS)[number];
    const beforeText = shape(random);
    const read = (beforeText ?? '').replace(/^\uFEFF/, '');
    let lines = joined(edit(random, split(read).map((text) => ({ text, untouched: true }))));
    if (lines.every((agentLine) => agentLine.untouched) && lines.length === split(read).length) lines = joined([...lines, added('changed\n')]);
    const path = `${prefix}-${String(index).padStart(3, '0')}.txt`;
    cases.push({
      name: `${shapeName} / ${editName}`,
      path,
      before: beforeText === null ? null : Buffer.from(beforeText, 'utf8'),
      agentText: lines.map((agentLine) => agentLine.text).join(''),
      kept: Buffer.from(keptText(beforeText, lines), 'utf8'),
      decision: random.chance(0.5) ? 'keep' : 'undo',
    });
  }
  return cases;
}

/** The bytes the file must have after the decision; null: it must not exist. */
export function expectedBytes(item: BufferCase, decision: Decision): Buffer | null {
  return decision === 'undo' ? item.before : item.kept;
}
