/**
 * What the fault runners (faultCases.ts) share: how a run is asked for and reported, a scope
 * that cleans up like a test's, time bounds, and a guard that counts crashes.
 */
import type { TestScope } from './sessionBuilders';

export interface FaultRun {
  /** Frames to feed, or kills to make. */
  cases: number;
  /** Runs with the same seed make the same cases. */
  seed?: number;
  /** Checked between cases: true stops the run (a time budget). */
  shouldStop?(): boolean;
  /** Called once a case (a frame, or a kill), with what went wrong (undefined when it held). */
  onCase?(failure: string | undefined): void;
  /** Progress for a person watching; never part of the figures. */
  progress?(line: string): void;
}

export interface FaultResult {
  tried: number;
  failures: number;
  /** The first failures, one line each. */
  details: string[];
  /** Figures worth printing whatever the outcome. */
  notes: string[];
}

const DESCRIBED_FAILURES = 8;

export class FaultTally {
  readonly result: FaultResult = { tried: 0, failures: 0, details: [], notes: [] };

  constructor(private readonly run: FaultRun) {}

  record(failure?: string): void {
    this.result.tried++;
    if (failure !== undefined) {
      this.result.failures++;
      if (this.result.details.length < DESCRIBED_FAILURES) this.result.details.push(failure);
    }
    this.run.onCase?.(failure);
  }

  note(line: string): void {
    this.result.notes.push(line);
  }
}

/** A TestScope outside node:test: what is registered runs at `close`, as at a test's end. */
export class CaseScope implements TestScope {
  private readonly cleanups: (() => unknown)[] = [];

  after(cleanup: () => unknown): void {
    this.cleanups.push(cleanup);
  }

  async close(): Promise<void> {
    for (const cleanup of this.cleanups.splice(0)) await cleanup();
  }
}

export function errorText(error: unknown): string {
  return error instanceof Error ? (error.message.split('\n')[0] ?? error.message) : String(error);
}

/** Runs `work`; a failure sentence if it throws, or if it is still running after `ms` (a hang). */
export async function bounded(ms: number, what: string, work: () => Promise<string | undefined>): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`${what} hung: not done after ${ms / 1000} s`), ms);
  });
  try {
    return await Promise.race([work().catch((error: unknown) => `${what} threw: ${errorText(error)}`), hang]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Counts what would have crashed the extension host (an uncaught exception, an unhandled
 * rejection) while a run goes on, and keeps the SDK's console reports of every frame it
 * dropped out of the output (counted instead).
 */
export class CrashGuard {
  readonly crashes: string[] = [];
  consoleErrors = 0;
  private readonly onCrash = (error: unknown) => {
    // Where it was thrown, too: the message alone rarely says which code failed.
    const where = error instanceof Error ? error.stack?.split('\n').find((line) => line.trim().startsWith('at '))?.trim() : undefined;
    this.crashes.push(where ? `${errorText(error)} (${where})` : errorText(error));
  };
  private readonly consoleError = console.error;

  constructor() {
    process.on('uncaughtException', this.onCrash);
    process.on('unhandledRejection', this.onCrash);
    console.error = () => {
      this.consoleErrors++;
    };
  }

  dispose(): void {
    process.off('uncaughtException', this.onCrash);
    process.off('unhandledRejection', this.onCrash);
    console.error = this.consoleError;
  }
}
