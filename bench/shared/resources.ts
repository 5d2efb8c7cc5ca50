import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { bundleAgent } from '../../test/support/agentBundle';
import type { AgentDefinition } from '../../src/agents/agentConfig';
import { repoRoot } from '../../test/support/scriptedAgentSpec';

/** Rounds run before the counted ones, so first-run costs (JIT, page cache, lazy loads) are not measured. */
export const WARMUP_ROUNDS = 1;

/**
 * Everything the benchmark starts or creates registers its undo here, so a failed or
 * interrupted run still stops its processes and removes its files (newest first).
 */
export class Cleanup {
  private readonly tasks = new Map<number, { what: string; run: () => unknown }>();
  private nextId = 0;

  /** Registers an undo; the returned function runs it now (once) and forgets it. */
  add(what: string, run: () => unknown): () => Promise<void> {
    const id = this.nextId++;
    this.tasks.set(id, { what, run });
    return async () => {
      const task = this.tasks.get(id);
      if (!task) return;
      this.tasks.delete(id);
      await task.run();
    };
  }

  get pending(): number {
    return this.tasks.size;
  }

  async runAll(): Promise<string[]> {
    const failures: string[] = [];
    const ids = [...this.tasks.keys()].sort((a, b) => b - a);
    for (const id of ids) {
      const task = this.tasks.get(id);
      this.tasks.delete(id);
      if (!task) continue;
      try {
        await withTimeout(Promise.resolve(task.run()), 10_000, `cleanup: ${task.what}`);
      } catch (error) {
        failures.push(`${task.what}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    return failures;
  }
}

/** Wall-clock time and this process's CPU time (user + system, all threads) for one measurement. */
export interface Timed {
  ms: number;
  cpuMs: number;
}

/** Starts a stopwatch; each call of the returned function reads both clocks since the start. */
export function startClock(): () => Timed {
  const wall = performance.now();
  const cpu = process.cpuUsage();
  return () => {
    const used = process.cpuUsage(cpu);
    return { ms: performance.now() - wall, cpuMs: (used.user + used.system) / 1000 };
  };
}

/** Every wait in the benchmark is bounded. */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** One scratch directory for the whole run: the compiled agent and the workspaces live in it. */
export function makeScratch(cleanup: Cleanup): { root: string; dir(name: string): string } {
  const root = mkdtempSync(path.join(os.tmpdir(), 'tandem-bench-'));
  cleanup.add(`remove ${root}`, () => rmSync(root, { recursive: true, force: true }));
  return {
    root,
    dir(name: string): string {
      const dir = path.join(root, name);
      mkdirSync(dir, { recursive: true });
      return dir;
    },
  };
}

/**
 * The scripted agent bundled to one plain .mjs file, so a spawn costs node's start-up and
 * not tsx's on-the-fly compilation. Both clients run this same file.
 */
export function compileScriptedAgent(outDir: string): Promise<string> {
  return bundleAgent(path.join(repoRoot, 'test', 'support', 'scripted-agent.ts'), path.join(outDir, 'scripted-agent.mjs'));
}

/** A full GC, from --expose-gc or switched on at run time; null when neither works. */
export function fullGc(): (() => void) | null {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed;
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as unknown;
    return typeof gc === 'function' ? () => (gc as () => void)() : null;
  } catch {
    return null;
  }
}

/** The raw client's environment: like Tandem's AgentProcess, the definition's env over the inherited one. */
export function agentEnv(definition: AgentDefinition): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  return { ...env, ...definition.env };
}
