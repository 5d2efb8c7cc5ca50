/**
 * The layer rules hold: every zone's lint rule fires on an import that breaks it and lets the legal
 * ones through, however the path is spelled; the size limits fire; and the host and webview programs
 * reject each other's globals. Probes are virtual: ESLint gets a file path inside the zone,
 * TypeScript an in-memory source file, so nothing is written to the repository.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, test } from 'node:test';
import { ESLint } from 'eslint';
import ts from 'typescript';
import { repoRoot } from '../support/scriptedAgentSpec';

const eslint = new ESLint({ cwd: repoRoot });

async function ruleIds(filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: join(repoRoot, filePath) });
  return (result?.messages ?? []).map((message) => message.ruleId ?? `fatal: ${message.message}`);
}

/** The imports among `specifiers` (one per line of a probe at `filePath`) that the layer rules refuse. */
async function refused(filePath: string, specifiers: readonly string[]): Promise<string[]> {
  const source = specifiers.map((specifier, i) => `import { probe${i} } from '${specifier}';`).join('\n');
  const [result] = await eslint.lintText(`${source}\n`, { filePath: join(repoRoot, filePath) });
  assert.deepEqual(result?.messages.filter((message) => message.fatal).map((message) => message.message), [], filePath);
  const lines = new Set(result?.messages.filter((message) => message.ruleId === 'no-restricted-imports').map((message) => message.line));
  return specifiers.filter((_, i) => lines.has(i + 1));
}

const FOLDERS = ['acp', 'thread', 'review', 'fs', 'terminals', 'agents', 'contract', 'util', 'inspector', 'demo-agent', 'permissions', 'elicitation', 'conversation', 'panel', 'vscode'];
const ABOVE_PURE = ['conversation', 'panel', 'permissions', 'elicitation', 'vscode', 'extension'];

/** What each folder of src may not import (the layer table the lint config must implement). */
const DENIED: Record<string, readonly string[]> = {
  ...Object.fromEntries(['acp', 'thread', 'review', 'fs', 'terminals', 'agents', 'contract', 'util', 'inspector', 'demo-agent'].map((folder) => [folder, ABOVE_PURE])),
  permissions: ['conversation', 'panel', 'vscode', 'extension'],
  elicitation: ['conversation', 'panel', 'vscode', 'extension'],
  conversation: ['panel', 'vscode', 'extension'],
  panel: ['vscode', 'extension'],
};

/** Spellings of a path from `src/<zone>/<nesting>probe.ts` to `src/<target>`: next door, via the repo root, with an extension. */
function spellings(nesting: string, target: string): string[] {
  const ups = '../'.repeat(nesting.split('/').length);
  const rest = target === 'extension' ? 'extension' : `${target}/x`;
  return [`${ups}${rest}`, `${ups}../src/${rest}`, `${ups}${rest}.js`];
}

describe('layer rules in eslint.config.mjs', () => {
  test('each src folder imports exactly the folders its layer allows, from any depth, however the path is spelled', async () => {
    for (const [zone, denied] of Object.entries(DENIED)) {
      for (const nesting of ['', 'inner/deeper/']) {
        const file = `src/${zone}/${nesting}probe.ts`;
        const all = [...FOLDERS, 'extension'].flatMap((target) => spellings(nesting, target));
        const forbidden = denied.flatMap((target) => spellings(nesting, target));
        assert.deepEqual(await refused(file, all), all.filter((specifier) => forbidden.includes(specifier)), file);
      }
    }
  });

  test('every folder of src is in the layer table, so a new folder gets a zone before it gets code', () => {
    const folders = readdirSync(join(repoRoot, 'src'), { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    assert.deepEqual(folders.sort(), [...FOLDERS].sort());
    assert.deepEqual(FOLDERS.filter((folder) => folder !== 'vscode' && !(folder in DENIED)), [], 'each folder but src/vscode has its denied list');
  });

  test('a forbidden folder cannot be reached through a detour, an absolute path, a re-export, a type or a dynamic import', async () => {
    for (const [zone, [denied]] of Object.entries(DENIED)) {
      const file = `src/${zone}/probe.ts`;
      const detours = [`../util/../${denied}/x`, `./../${denied}/x`, `../../../main/src/${denied}/x`, `${repoRoot}/src/${denied}/x`];
      assert.deepEqual(await refused(file, detours), detours, file);
      for (const source of [`export * from '../${denied}/x';`, `export { probe } from '../${denied}/x';`, `import type { Probe } from '../${denied}/x';\nexport type { Probe };`, `import probe = require('../${denied}/x');\nexport { probe };`]) {
        assert.ok((await ruleIds(file, source)).includes('no-restricted-imports'), `${file}: ${source}`);
      }
      for (const source of [`export const probe = import('../${denied}/x');`, `export const probe = require('../${denied}/x');`, `export type Probe = typeof import('../${denied}/x');`]) {
        assert.ok((await ruleIds(file, source)).includes('no-restricted-syntax'), `${file}: ${source}`);
      }
    }
  });

  test('a file nested deeper than the generated rules reach may not import upward at all', async () => {
    assert.deepEqual(await refused('src/acp/a/b/c/d/probe.ts', ['../../../../../util/logger', './sibling']), []);
    assert.deepEqual(await refused('src/acp/a/b/c/d/e/probe.ts', ['../../../../../../util/logger', './sibling']), ['../../../../../../util/logger']);
    assert.deepEqual(await refused('webview/a/b/c/d/e/probe.ts', ['../../../../../../src/contract/messages', './sibling']), ['../../../../../../src/contract/messages']);
  });

  test('only src/vscode and src/extension.ts import vscode', async () => {
    const allowed = ['src/extension.ts', 'src/vscode/probe.ts', 'src/vscode/review/probe.ts'];
    const refusing = ['src/probe.ts', 'src/newFolder/probe.ts', ...Object.keys(DENIED).map((zone) => `src/${zone}/probe.ts`), 'webview/probe.ts', 'webview/views/probe.ts'];
    for (const file of allowed) assert.deepEqual(await refused(file, ['vscode']), [], file);
    for (const file of refusing) assert.deepEqual(await refused(file, ['vscode']), ['vscode'], file);
  });

  test('the pure layers may still use Node and their npm packages', async () => {
    assert.deepEqual(await refused('src/acp/probe.ts', ['node:fs', 'node:child_process', '@agentclientprotocol/sdk', 'diff', 'zod']), []);
  });

  test('the webview imports only src/contract and src/util/assertNever from outside webview/', async () => {
    const legal: Record<string, string[]> = {
      'webview/probe.ts': ['./dom', '../src/contract/messages', '../src/util/assertNever'],
      'webview/views/probe.ts': ['../dom', '../../webview/dom', '../../src/contract/viewModel', '../../src/util/assertNever.js'],
      'webview/views/deeper/probe.ts': ['../../../src/contract/viewModel'],
    };
    const illegal: Record<string, string[]> = {
      'webview/probe.ts': ['../src/util/logger', '../src/contract/../panel/chatPresenter', '../package.json', '../test/support/waitFor', '../../main/src/contract/messages'],
      'webview/views/probe.ts': ['../../srcx/contract/messages', '../../../main/src/contract/messages', ...FOLDERS.filter((folder) => folder !== 'contract').map((folder) => `../../src/${folder}/x`)],
      'webview/views/deeper/probe.ts': ['../../../src/thread/threadModel', '../../../src/extension'],
    };
    for (const file of Object.keys(legal)) {
      assert.deepEqual(await refused(file, [...(legal[file] ?? []), ...(illegal[file] ?? [])]), illegal[file], file);
    }
  });

  test('the webview uses no Node module and not the ACP SDK, but may use browser packages', async () => {
    const node = ['node:fs', 'node:test', 'fs', 'fs/promises', 'path', 'child_process', 'os', '@agentclientprotocol/sdk', '@agentclientprotocol/sdk/dist/schema'];
    const browser = ['dompurify', 'markdown-it', '@xterm/xterm', '@vscode/codicons/dist/codicon.css', '@vscode-elements/elements'];
    assert.deepEqual(await refused('webview/views/probe.ts', [...browser, ...node]), node);
    assert.ok((await ruleIds('webview/probe.ts', "export const probe = import('node:fs');")).includes('no-restricted-syntax'));
  });
});

/** `count` counted lines, with blank lines and comments between them that the limit skips. */
function linesOfCode(count: number): string {
  return Array.from({ length: count }, (_, i) => `export const line${i} = ${i};${i % 10 === 0 ? '\n\n// not counted\n/* nor this */' : ''}`).join('\n');
}

/** A function whose ESLint complexity is `complexity`: one path plus one per `if`. */
function functionOfComplexity(complexity: number, typed: boolean): string {
  const branches = Array.from({ length: complexity - 1 }, (_, i) => `  if (x === ${i}) return ${i};`).join('\n');
  return `export function probe(x${typed ? ': number' : ''}) {\n${branches}\n  return -1;\n}\n`;
}

describe('size limits in eslint.config.mjs', () => {
  const limits: [file: string, maxLines: number][] = [
    ['src/acp/probe.ts', 350],
    ['src/vscode/probe.ts', 350],
    ['webview/views/probe.ts', 350],
    ['bench/probe.ts', 350],
    ['scripts/probe.mjs', 350],
    ['test/unit/probe.test.ts', 450],
    ['test/support/probe.ts', 450],
  ];

  test('max-lines is an error at 350 counted lines in src, webview, bench and scripts and 450 in test', async () => {
    for (const [file, max] of limits) {
      assert.deepEqual((await ruleIds(file, linesOfCode(max))).filter((id) => id === 'max-lines'), [], `${file}: ${max} lines pass`);
      assert.deepEqual((await ruleIds(file, linesOfCode(max + 1))).filter((id) => id === 'max-lines'), ['max-lines'], `${file}: ${max + 1} lines fail`);
    }
    const [result] = await eslint.lintText(linesOfCode(351), { filePath: join(repoRoot, 'src/acp/probe.ts') });
    assert.equal(result?.messages.find((message) => message.ruleId === 'max-lines')?.severity, 2, 'an error, not a warning');
  });

  test('complexity above 15 is an error everywhere', async () => {
    for (const [file] of limits) {
      const typed = file.endsWith('.ts');
      assert.deepEqual((await ruleIds(file, functionOfComplexity(15, typed))).filter((id) => id === 'complexity'), [], `${file}: 15 passes`);
      const [result] = await eslint.lintText(functionOfComplexity(16, typed), { filePath: join(repoRoot, file) });
      assert.deepEqual(result?.messages.filter((message) => message.ruleId === 'complexity').map((message) => message.severity), [2], `${file}: 16 fails`);
    }
  });
});

// Lib and @types files are the bulk of every program and the same in each, so they are parsed once.
const parsedFiles = new Map<string, ts.SourceFile>();

interface Probe {
  program: ts.Program;
  /** `line (1-based): TS<code>` for each error in the probe. */
  errors: string[];
}

/** Type-checks `source` as `probeFile` inside the program of `configFile`, with the project's own files. */
function checkProbe(configFile: string, probeFile: string, source: string, withProjectFiles: boolean): Probe {
  const config = ts.getParsedCommandLineOfConfigFile(join(repoRoot, configFile), {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => assert.fail(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')),
  });
  assert.ok(config, configFile);
  assert.deepEqual(config.errors.map((error) => ts.flattenDiagnosticMessageText(error.messageText, '\n')), [], configFile);
  const probePath = join(repoRoot, probeFile);
  const host = ts.createCompilerHost(config.options);
  const readFromDisk = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, ...rest) => {
    if (fileName === probePath) return ts.createSourceFile(fileName, source, languageVersion, true);
    const cached = parsedFiles.get(fileName) ?? readFromDisk(fileName, languageVersion, ...rest);
    if (cached) parsedFiles.set(fileName, cached);
    return cached;
  };
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (fileName) => fileName === probePath || fileExists(fileName);
  const program = ts.createProgram({ rootNames: [...(withProjectFiles ? config.fileNames : []), probePath], options: config.options, host });
  const probe = program.getSourceFile(probePath);
  assert.ok(probe);
  const errors = [...program.getSyntacticDiagnostics(probe), ...program.getSemanticDiagnostics(probe)]
    .map((diagnostic) => `${probe.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1}: TS${diagnostic.code}`);
  return { program, errors };
}

const programFiles = (program: ts.Program) => program.getSourceFiles().map((file) => relative(repoRoot, file.fileName)).filter((file) => !file.startsWith('node_modules'));

function sourcesUnder(folder: string): string[] {
  return readdirSync(join(repoRoot, folder), { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts')).map((file) => join(folder, file));
}

describe('TypeScript programs per layer', () => {
  test('the host program (tsconfig.host.json) has Node but no DOM, covers all of src and pulls in no webview code', () => {
    const { program, errors } = checkProbe('tsconfig.host.json', 'src/layeringProbe.ts', [
      "import { readFileSync } from 'node:fs';",
      'export const nodeOnly = [process.pid, readFileSync];',
      'export const browserOnly = document.title;',
    ].join('\n'), true);
    assert.deepEqual(errors, ['3: TS2584'], "only `document` is unknown (TS2584: no 'dom' lib)");
    const files = programFiles(program);
    assert.deepEqual(sourcesUnder('src').filter((file) => !files.includes(file)), [], 'every src file is checked');
    assert.deepEqual(files.filter((file) => !file.startsWith('src/')), [], 'nothing outside src');
  });

  test('the webview program (webview/tsconfig.json) has the DOM but no Node, and reaches only src/contract and assertNever', () => {
    const { program, errors } = checkProbe('webview/tsconfig.json', 'webview/layeringProbe.ts', [
      'export const browserOnly = [document.title, window.innerWidth];',
      'export const nodeGlobal = process.pid;',
      "export const nodeRequire = require('node:fs');",
      "export { readFileSync } from 'node:fs';",
      "export type { Buffer } from 'node:buffer';",
    ].join('\n'), true);
    // TS2580/TS2591: a Node global without Node types; TS2307: a module that cannot be found.
    assert.deepEqual(errors.map((error) => error.replace('TS2591', 'TS2580')), ['2: TS2580', '3: TS2580', '4: TS2307', '5: TS2307'], 'process, require and node: modules are unknown');
    const files = programFiles(program);
    assert.deepEqual(sourcesUnder('webview').filter((file) => !files.includes(file)), [], 'every webview file is checked');
    const outside = files.filter((file) => !file.startsWith('webview/') && !file.startsWith('src/contract/') && file !== 'src/util/assertNever.ts');
    assert.deepEqual(outside, [], 'nothing else from src');
  });

  test('the test program (tsconfig.json) has both, for Playwright page callbacks in Node tests', () => {
    const { errors } = checkProbe('tsconfig.json', 'test/layeringProbe.ts', [
      "import { readFileSync } from 'node:fs';",
      'export const both = [process.pid, readFileSync, document.title];',
    ].join('\n'), false);
    assert.deepEqual(errors, []);
  });

  test('npm run lint runs ESLint and every program', () => {
    const lint = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.lint ?? '';
    for (const step of ['eslint ', 'tsc -p tsconfig.host.json', 'tsc -p webview', 'tsc -p .']) assert.ok(lint.includes(step), `${step} in: ${lint}`);
  });
});
