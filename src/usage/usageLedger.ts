import { appendFile, mkdir, open, readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../util/logger';
import { SpendBook } from './spendBook';
import { zUsageEntry, type UsageEntry } from './usageEntry';

/** Months of entries kept; older month files are removed when the ledger opens. */
export const LEDGER_MONTHS_KEPT = 24;
/** A month file stops taking entries past this size (about 200,000 turns), so the ledger stays bounded. */
export const LEDGER_MONTH_MAX_BYTES = 64 * 1024 * 1024;

const MONTH_FILE = /^usage-(\d{4})-(\d{2})\.jsonl$/;

/** What reading the ledger found: its entries, oldest first, and how many lines it could not read. */
export interface LedgerContents {
  entries: UsageEntry[];
  skipped: number;
}

/** The entries of ledger text: one JSON object per line; a torn or damaged line is counted and skipped. */
export function parseLedger(text: string): LedgerContents {
  const entries: UsageEntry[] = [];
  let skipped = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      skipped++;
      continue;
    }
    const parsed = zUsageEntry.safeParse(value);
    if (parsed.success) entries.push(parsed.data);
    else skipped++;
  }
  return { entries, skipped };
}

/**
 * Usage, one turn per line, appended to a file per month in the extension's global storage: an
 * append-only log rather than a database, because a crash or a kill mid-write can then only tear
 * the line being written (read back as one skipped line), several windows can append to the same
 * file at once (each entry is one write of one line, opened for appending), and it needs no
 * native module in the extension host. Bounded by months kept and a size cap per month.
 */
export class UsageLedger {
  /** Appends in order, one at a time; `record` never waits on it. */
  private writes: Promise<void> = Promise.resolve();
  private fullMonthLogged: string | null = null;
  /** This month's spend and on, once a budget asked: read from the files in the write queue, then kept up by each entry written. */
  private book: Promise<SpendBook> | null = null;
  private bookFrom = '';

  constructor(private readonly folder: string, private readonly log: Logger, private readonly now: () => Date = () => new Date()) {}

  /** Adds one turn. Failures go to the log: usage is never worth failing a turn for. */
  record(entry: UsageEntry): void {
    // A book asked for before this entry reads the files after it is written, so only a book
    // asked for already counts it: each entry is counted once, from the file or from here.
    const book = this.book;
    const bookFrom = this.bookFrom;
    this.writes = this.writes.then(async () => {
      await this.append(entry);
      if (book && entry.day >= bookFrom) (await book).add(entry);
    }).catch((error: unknown) => {
      this.log.warn(`Could not record usage: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  /** What was spent from `fromDay` on (YYYY-MM-DD) in `currency`, by every window that shares this ledger up to the first ask, and by this one since. */
  async spentSince(fromDay: string, currency: string): Promise<number> {
    if (!this.book || fromDay < this.bookFrom) {
      const from = fromDay;
      const book = this.writes.then(() => this.readFiles()).then(({ entries }) => {
        const filled = new SpendBook();
        for (const entry of entries) if (entry.day >= from) filled.add(entry);
        return filled;
      });
      this.book = book;
      this.bookFrom = from;
      this.writes = book.then(() => undefined, () => undefined);
    }
    const book = this.book;
    await this.writes;
    return (await book).spentSince(fromDay, currency);
  }

  /** Resolves once every entry recorded so far is written (or failed). */
  flushed(): Promise<void> {
    return this.writes;
  }

  /** Every entry kept, oldest month first. */
  async read(): Promise<LedgerContents> {
    await this.flushed();
    return this.readFiles();
  }

  private async readFiles(): Promise<LedgerContents> {
    const contents: LedgerContents = { entries: [], skipped: 0 };
    for (const name of await this.monthFiles()) {
      const month = parseLedger(await readFile(join(this.folder, name), 'utf8'));
      contents.entries.push(...month.entries);
      contents.skipped += month.skipped;
    }
    return contents;
  }

  /** Removes month files older than LEDGER_MONTHS_KEPT months before now. */
  async prune(): Promise<void> {
    const now = this.now();
    const oldestKept = now.getFullYear() * 12 + now.getMonth() - (LEDGER_MONTHS_KEPT - 1);
    for (const name of await this.monthFiles()) {
      const [, year, month] = MONTH_FILE.exec(name) ?? [];
      if (Number(year) * 12 + Number(month) - 1 < oldestKept) await rm(join(this.folder, name), { force: true });
    }
  }

  private async append(entry: UsageEntry): Promise<void> {
    const file = join(this.folder, `usage-${entry.day.slice(0, 7)}.jsonl`);
    await mkdir(this.folder, { recursive: true });
    const size = await stat(file).then((info) => info.size, () => 0);
    if (size >= LEDGER_MONTH_MAX_BYTES) {
      if (this.fullMonthLogged !== file) this.log.warn(`The usage ledger for ${entry.day.slice(0, 7)} is full (${LEDGER_MONTH_MAX_BYTES} bytes); later turns of that month are not recorded.`);
      this.fullMonthLogged = file;
      return;
    }
    // A line the last crash tore is closed first, so this entry starts a line of its own.
    const torn = size > 0 && !(await endsWithNewline(file, size));
    await appendFile(file, `${torn ? '\n' : ''}${JSON.stringify(entry)}\n`, { encoding: 'utf8', flag: 'a' });
  }

  private async monthFiles(): Promise<string[]> {
    const names = await readdir(this.folder).catch(() => [] as string[]);
    return names.filter((name) => MONTH_FILE.test(name)).sort();
  }
}

async function endsWithNewline(file: string, size: number): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    return last[0] === 0x0a;
  } finally {
    await handle.close();
  }
}
