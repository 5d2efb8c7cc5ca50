/**
 * No two files import each other, directly or around a loop. Lint's order of units keeps folders
 * from looping; this holds the same line inside a folder, where a loop means neither file can be
 * read, tested or moved without the other, and a module can be seen half-initialised at load.
 * Type-only imports count: they tie the files' meanings together just the same.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, test } from 'node:test';
import ts from 'typescript';
import { repoRoot } from '../support/scriptedAgentSpec';

const PROGRAMS = ['src', 'webview'];

function sourceFiles(): string[] {
  return PROGRAMS.flatMap((folder) => readdirSync(join(repoRoot, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => join(repoRoot, folder, file)));
}

/** The file a relative specifier names, as TypeScript resolves it: `x`, `x.ts` for `x.js`, `x.ts`, or `x/index.ts`. */
function resolveImport(fromFile: string, specifier: string): string | undefined {
  const target = resolve(dirname(fromFile), specifier);
  const candidates = [target, target.replace(/\.js$/, '.ts'), `${target}.ts`, join(target, 'index.ts')];
  return candidates.find((candidate) => candidate.endsWith('.ts') && existsSync(candidate));
}

interface ImportGraph {
  /** Each file's relatively imported files, in the order it imports them. */
  edges: Map<string, string[]>;
  /** `file: specifier` for each relative import that names no .ts file. */
  unresolved: string[];
}

function importGraph(files: readonly string[]): ImportGraph {
  const edges = new Map<string, string[]>();
  const unresolved: string[] = [];
  for (const file of files) {
    // The scanner sees `import`, `import type`, `export ... from` and `import x = require(...)` alike.
    const specifiers = ts.preProcessFile(readFileSync(file, 'utf8'), true, false).importedFiles.map((imported) => imported.fileName);
    const targets: string[] = [];
    for (const specifier of specifiers.filter((name) => name.startsWith('.'))) {
      const target = resolveImport(file, specifier);
      if (target) targets.push(target);
      else unresolved.push(`${relative(repoRoot, file)}: ${specifier}`);
    }
    edges.set(file, [...new Set(targets)]);
  }
  return { edges, unresolved };
}

/** Groups of files that reach each other through imports (Tarjan's strongly connected components), loops only. */
function loops(edges: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const lowest = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    lowest.set(file, index.get(file) ?? 0);
    stack.push(file);
    onStack.add(file);
    for (const next of edges.get(file) ?? []) {
      if (!index.has(next)) visit(next);
      if (onStack.has(next)) lowest.set(file, Math.min(lowest.get(file) ?? 0, lowest.get(next) ?? 0, index.get(next) ?? 0));
    }
    if (lowest.get(file) !== index.get(file)) return;
    const group: string[] = [];
    for (let member = stack.pop(); member !== undefined; member = member === file ? undefined : stack.pop()) {
      onStack.delete(member);
      group.push(member);
    }
    if (group.length > 1 || (edges.get(file) ?? []).includes(file)) found.push(group);
  };
  for (const file of edges.keys()) if (!index.has(file)) visit(file);
  return found;
}

/** One shortest loop from `start` back to it through `group`, as `[start, a, b, start]`. */
function shortestLoop(edges: ReadonlyMap<string, readonly string[]>, group: readonly string[], start: string): string[] {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0 && !cameFrom.has(start)) {
    const file = queue.shift() ?? start;
    for (const next of (edges.get(file) ?? []).filter((target) => group.includes(target) && !cameFrom.has(target))) {
      cameFrom.set(next, file);
      queue.push(next);
    }
  }
  const loop = [start];
  for (let file = cameFrom.get(start); file !== undefined && file !== start; file = cameFrom.get(file)) loop.splice(1, 0, file);
  return [...loop, start];
}

function describeLoop(edges: ReadonlyMap<string, readonly string[]>, group: readonly string[]): string {
  const name = (file: string) => relative(repoRoot, file);
  const sorted = [...group].sort();
  const start = sorted[0] ?? '';
  const loop = shortestLoop(edges, group, start).map(name).join(' -> ');
  return group.length > 2 ? `${loop}\n    (${group.length} files tied in one loop: ${sorted.map(name).join(', ')})` : loop;
}

describe('imports between files', () => {
  const { edges, unresolved } = importGraph(sourceFiles());

  test('every relative import in src and webview names a .ts file, so the graph below misses none', () => {
    assert.deepEqual(unresolved, []);
    assert.ok([...edges.values()].some((targets) => targets.length > 0), 'imports were read');
  });

  test('no file imports itself back through another file', () => {
    const found = loops(edges).map((group) => describeLoop(edges, group));
    assert.equal(found.length, 0, `${found.length} import loops between files:\n  ${found.join('\n  ')}`);
  });
});
