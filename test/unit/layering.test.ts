/**
 * The layer rules hold: each unit of the order, the demo agent and the webview refuse every import
 * that breaks the order and let the legal ones through, however the path is spelled; the size limits
 * fire; and the host and webview programs reject each other's globals. Probes are virtual: ESLint gets a file path inside the zone,
 * TypeScript an in-memory source file, so nothing is written to the repository.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join, posix, relative } from 'node:path';
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

/** The order of units, lowest first: each may import only the units before it (the table the lint config must implement). */
const CORE = [
  'util', 'wire', 'redaction', 'acp', 'agents', 'registry', 'usage', 'thread', 'files', 'review',
  'checkpoints', 'permissions', 'elicitation', 'terminals', 'workspace', 'inspector', 'replay', 'conversation', 'contract',
].map((folder) => `src/${folder}`);
const PANEL = ['src/usage/panel', 'src/terminals/panel', 'src/inspector/panel', 'src/replay/panel', 'src/checkpoints/panel', 'src/panel'];
const VSCODE = [
  'src/files/vscode', 'src/review/vscode', 'src/checkpoints/vscode', 'src/permissions/vscode',
  'src/agents/vscode', 'src/terminals/vscode', 'src/workspace/vscode', 'src/registry/vscode', 'src/inspector/vscode', 'src/usage/vscode', 'src/replay/vscode', 'src/vscode',
  'src/extension.ts',
];
const ORDER = [...CORE, ...PANEL, ...VSCODE];
const DEMO_AGENT = 'src/demo-agent';

/** What an import names: a folder, or a file without its extension. */
const importPath = (unit: string) => unit.replace(/\.ts$/, '');
/** Files in no unit: another program, and folders not (yet) in the order, which nobody may import. */
const OUTSIDE = ['webview', 'src/newFolder', 'src/thread/vscode', 'src/conversation/panel'].map((folder) => `${folder}/x`);

/** A file each unit owns: in its folder (or the unit itself for src/extension.ts); a core owns its other subfolders. */
function targetsOf(unit: string): string[] {
  if (unit.endsWith('.ts')) return [importPath(unit)];
  return CORE.includes(unit) ? [`${unit}/x`, `${unit}/sub/x`] : [`${unit}/x`];
}

/** Probe files of a unit: at its top and two folders down. */
function probesOf(unit: string): string[] {
  return unit.endsWith('.ts') ? [unit] : [`${unit}/probe.ts`, `${unit}/inner/deeper/probe.ts`];
}

/** Spellings of a path from `file` to `target` (both from the repo root): next door, via the repo root, with an extension. */
function spellings(file: string, target: string): string[] {
  const nextDoor = posix.relative(posix.dirname(file), target);
  const relativePath = nextDoor.startsWith('../') ? nextDoor : `./${nextDoor}`;
  const toRoot = '../'.repeat(posix.dirname(file).split('/').length);
  return [relativePath, `${toRoot}${target}`, `${relativePath}.js`];
}

/** Each unit's probes, with the targets it may not import: every unit after it and everything outside the order. */
function zones(): { unit: string; denied: string[] }[] {
  return [
    ...ORDER.map((unit, i) => ({ unit, denied: [...ORDER.slice(i + 1).flatMap(targetsOf), `${DEMO_AGENT}/x`, ...OUTSIDE] })),
    { unit: DEMO_AGENT, denied: [...ORDER.flatMap(targetsOf), ...OUTSIDE] },
  ];
}

describe('layer rules in eslint.config.mjs', () => {
  test('each unit imports exactly the units before it in the order, from any depth, however the path is spelled', async () => {
    const targets = [...ORDER.flatMap(targetsOf), `${DEMO_AGENT}/x`, ...OUTSIDE];
    for (const { unit, denied } of zones()) {
      for (const file of probesOf(unit)) {
        const all = targets.flatMap((target) => spellings(file, target));
        const forbidden = denied.flatMap((target) => spellings(file, target));
        assert.deepEqual(await refused(file, all), all.filter((specifier) => forbidden.includes(specifier)), file);
      }
    }
  });

  test('every folder of src, and every panel/ and vscode/ subfolder, has a place in the order before it gets code', () => {
    const folders = (folder: string) => readdirSync(join(repoRoot, folder), { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => `${folder}/${entry.name}`);
    const files = readdirSync(join(repoRoot, 'src'), { withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => `src/${entry.name}`);
    const subunits = folders('src').flatMap(folders).filter((folder) => /\/(panel|vscode)$/.test(folder));
    const places = [...folders('src'), ...subunits, ...files];
    assert.deepEqual(places.filter((place) => !ORDER.includes(place) && place !== DEMO_AGENT), []);
  });

  test('a refused import says which unit the file is in and the rule it breaks', async () => {
    const messages = async (file: string, specifier: string) => {
      const [result] = await eslint.lintText(`import { probe } from '${specifier}';\n`, { filePath: join(repoRoot, file) });
      const restrictions = (result?.messages ?? []).filter((message) => message.ruleId === 'no-restricted-imports');
      return restrictions.map((message) => message.message.replace(/^.* import is restricted from being used( by a pattern)?\. /, ''));
    };
    const order = (unit: string) => `${unit} is unit ${ORDER.indexOf(unit) + 1} of the order in eslint.config.mjs: it may import only units before it.`;
    const layer = (unit: string, name: string) => `${unit} is in the ${name} layer: it may not import the vscode layer (vscode/ folders, src/vscode, src/extension.ts).`;
    assert.deepEqual(await messages('src/review/probe.ts', '../checkpoints/x'), [order('src/review')]);
    assert.deepEqual(await messages('src/review/probe.ts', './panel/x'), [order('src/review')]);
    assert.deepEqual(await messages('src/review/probe.ts', './vscode/x'), [layer('src/review', 'core')]);
    assert.deepEqual(await messages('src/review/comments/probe.ts', '../../vscode/x'), [layer('src/review', 'core')]);
    assert.deepEqual(await messages('src/usage/panel/probe.ts', '../../extension'), [layer('src/usage/panel', 'panel')]);
    assert.deepEqual(await messages('src/review/vscode/probe.ts', '../../checkpoints/vscode/x'), [order('src/review/vscode')]);
    assert.deepEqual(await messages('src/usage/probe.ts', 'vscode'), ['src/usage is in the core layer: only the vscode layer (vscode/ folders, src/vscode, src/extension.ts) may use the VS Code API.']);
  });

  test('a forbidden unit cannot be reached through a detour, an absolute path, a re-export, a type or a dynamic import', async () => {
    for (const { unit, denied: [target] } of zones()) {
      assert.ok(target);
      const file = probesOf(unit)[0] ?? unit;
      const [nextDoor] = spellings(file, target);
      const depth = posix.dirname(file).split('/').length;
      const toSrc = depth > 1 ? '../'.repeat(depth - 1) : './';
      const inSrc = target.replace(/^src\//, '');
      const detours = [`${toSrc}util/../${inSrc}`, `./${toSrc}${inSrc}`, `${'../'.repeat(depth)}../${basename(repoRoot)}/${target}`, `${repoRoot}/${target}`];
      assert.deepEqual(await refused(file, detours), detours, file);
      for (const source of [`export * from '${nextDoor}';`, `export { probe } from '${nextDoor}';`, `import type { Probe } from '${nextDoor}';\nexport type { Probe };`, `import probe = require('${nextDoor}');\nexport { probe };`]) {
        assert.ok((await ruleIds(file, source)).includes('no-restricted-imports'), `${file}: ${source}`);
      }
      for (const source of [`export const probe = import('${nextDoor}');`, `export const probe = require('${nextDoor}');`, `export type Probe = typeof import('${nextDoor}');`]) {
        assert.ok((await ruleIds(file, source)).includes('no-restricted-syntax'), `${file}: ${source}`);
      }
    }
  });

  test('no core imports the contract, which publishes the cores\' types from above them; the panels and adapters do', async () => {
    for (const unit of CORE.filter((core) => core !== 'src/contract')) {
      assert.deepEqual(await refused(`${unit}/probe.ts`, ['../contract/x']), ['../contract/x'], unit);
    }
    assert.deepEqual(await refused('src/thread/probe.ts', ['../contract/viewModel', './entries', '../acp/toolKinds']), ['../contract/viewModel']);
    assert.deepEqual(await refused('src/contract/probe.ts', ['../thread/entries', '../conversation/connection', '../acp/toolKinds', '../util/ids']), []);
    assert.deepEqual(await refused('src/panel/probe.ts', ['../contract/viewModel']), []);
    assert.deepEqual(await refused('src/review/vscode/probe.ts', ['../../contract/reviewView']), []);
  });

  test('a file nested deeper than the generated rules reach may not import upward at all', async () => {
    assert.deepEqual(await refused('src/acp/a/b/c/d/probe.ts', ['../../../../../util/logger', './sibling']), []);
    assert.deepEqual(await refused('src/acp/a/b/c/d/e/probe.ts', ['../../../../../../util/logger', './sibling']), ['../../../../../../util/logger']);
    assert.deepEqual(await refused('src/review/vscode/a/b/c/d/probe.ts', ['../../../../../../util/logger', '../../../../../x', './sibling']), []);
    assert.deepEqual(await refused('src/review/vscode/a/b/c/d/e/probe.ts', ['../../../../../../../util/logger', './sibling']), ['../../../../../../../util/logger']);
    assert.deepEqual(await refused('webview/a/b/c/d/e/probe.ts', ['../../../../../../src/contract/messages', './sibling']), ['../../../../../../src/contract/messages']);
  });

  test('only the vscode layer imports vscode', async () => {
    const allowed = VSCODE.flatMap(probesOf);
    const refusing = ['src/probe.ts', 'src/newFolder/probe.ts', 'src/thread/vscode/probe.ts', ...[...CORE, ...PANEL, DEMO_AGENT].flatMap(probesOf), 'webview/probe.ts', 'webview/views/probe.ts'];
    for (const file of allowed) assert.deepEqual(await refused(file, ['vscode']), [], file);
    for (const file of refusing) assert.deepEqual(await refused(file, ['vscode']), ['vscode'], file);
  });

  test('the pure layers may still use Node and their npm packages', async () => {
    assert.deepEqual(await refused('src/acp/probe.ts', ['node:fs', 'node:child_process', '@agentclientprotocol/sdk', 'diff', 'zod']), []);
  });

  test('the webview imports only src/contract and src/util/assertNever from outside webview/', async () => {
    const legal: Record<string, string[]> = {
      'webview/probe.ts': ['./dom', '../src/contract/messages', '../src/util/assertNever'],
      'webview/views/probe.ts': ['../dom', '../../webview/dom', '../../src/contract/viewModel', '../../src/contract/sub/x', '../../src/util/assertNever.js'],
      'webview/views/deeper/probe.ts': ['../../../src/contract/viewModel'],
    };
    const elsewhere = [...ORDER.filter((unit) => unit !== 'src/contract').flatMap(targetsOf), 'src/contract/panel/x', 'src/contract/vscode/x', `${DEMO_AGENT}/x`];
    const illegal: Record<string, string[]> = {
      'webview/probe.ts': ['../src/util/logger', '../src/contract/../panel/chatPresenter', '../package.json', '../test/support/waitFor', '../../main/src/contract/messages', '..'],
      'webview/views/probe.ts': ['../../srcx/contract/messages', '../../../main/src/contract/messages', ...elsewhere.map((target) => `../../${target}`)],
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

// Lib and package files, also when node_modules is a link to another checkout's (a git worktree's).
const programFiles = (program: ts.Program) => program.getSourceFiles().map((file) => relative(repoRoot, file.fileName)).filter((file) => !file.split('/').includes('node_modules'));

function sourcesUnder(folder: string): string[] {
  return readdirSync(join(repoRoot, folder), { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts')).map((file) => join(folder, file));
}

/** What a file of `program` imports and re-exports: the packages it names, and the files it reaches (from the repo root). */
function importsOf(program: ts.Program, file: string): { packages: string[]; files: string[] } {
  const path = join(repoRoot, file);
  const specifiers = ts.preProcessFile(program.getSourceFile(path)?.text ?? '', true, true).importedFiles.map((imported) => imported.fileName);
  const resolved = specifiers.filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => ts.resolveModuleName(specifier, path, program.getCompilerOptions(), ts.sys).resolvedModule?.resolvedFileName);
  return {
    packages: specifiers.filter((specifier) => !specifier.startsWith('.')),
    files: resolved.filter((resolvedFile) => resolvedFile !== undefined).map((resolvedFile) => relative(repoRoot, resolvedFile)),
  };
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

  test('the webview program (webview/tsconfig.json) has the DOM but no Node, and reaches src only through src/contract and assertNever', () => {
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
    assert.deepEqual(files.filter((file) => !file.startsWith('webview/') && !file.startsWith('src/')), [], 'nothing outside webview and src');
    // The contract publishes what the cores own (types, small constant lists): those files come along.
    const reach = files.filter((file) => file.startsWith('src/contract/'));
    for (const file of reach) for (const reached of importsOf(program, file).files) if (!reach.includes(reached)) reach.push(reached);
    const published = reach.filter((file) => !file.startsWith('src/contract/'));
    const outside = files.filter((file) => file.startsWith('src/') && !file.startsWith('src/contract/') && file !== 'src/util/assertNever.ts');
    assert.deepEqual(outside.filter((file) => !published.includes(file)), [], 'the rest of src only as the contract publishes it');
    assert.deepEqual(published.filter((file) => importsOf(program, file).packages.length > 0), [], 'what the contract publishes of the cores imports no package');
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
