// Lint holds one total order of units, so a wrong import fails the build instead of waiting for a
// reviewer, and no two folders can import each other: each unit of ORDER imports only the units
// before it (and itself). A unit is a folder of src, a feature's panel/ or vscode/ subfolder, or
// src/extension.ts; a feature's core (src/X) is its folder minus those two subfolders.
// Only the vscode layer touches the VS Code API; src/demo-agent is a program of its own, and the
// webview runs in a browser and imports only the shared contract. test/unit/layering.test.ts proves
// every rule below fires.
import js from '@eslint/js';
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';

// Features' pure cores, lowest first: no VS Code API. The contract comes last: it publishes to the
// webview what the cores own (re-exporting their types), so no core imports it.
const CORE = [
  'src/util', 'src/wire', 'src/redaction', 'src/acp', 'src/agents', 'src/registry', 'src/usage', 'src/thread',
  'src/files', 'src/review', 'src/checkpoints', 'src/permissions', 'src/elicitation', 'src/terminals', 'src/workspace',
  'src/inspector', 'src/replay', 'src/conversation', 'src/contract',
];
// The panels' host side: no VS Code API either, so it runs under unit tests as it runs in the editor.
const PANEL = ['src/usage/panel', 'src/terminals/panel', 'src/inspector/panel', 'src/replay/panel', 'src/checkpoints/panel', 'src/panel'];
// Adapters to the VS Code API, and the wiring on top.
const VSCODE = [
  'src/files/vscode', 'src/review/vscode', 'src/checkpoints/vscode', 'src/permissions/vscode',
  'src/agents/vscode', 'src/terminals/vscode', 'src/workspace/vscode', 'src/registry/vscode', 'src/inspector/vscode', 'src/usage/vscode', 'src/replay/vscode', 'src/vscode',
  'src/extension.ts',
];
const ORDER = [...CORE, ...PANEL, ...VSCODE];

// A core's panel/ and vscode/ subfolders are other units (or, unlisted, no unit at all), whether they exist yet or not.
const CORE_SUBUNITS = CORE.flatMap((unit) => [`${unit}/panel`, `${unit}/vscode`]);

// What an import names: a folder, or a file without its extension.
const importPath = (unit) => unit.replace(/\.ts$/, '');
const VSCODE_LAYER_NAME = 'the vscode layer (vscode/ folders, src/vscode, src/extension.ts)';
const VSCODE_API = { name: 'vscode', message: `Only ${VSCODE_LAYER_NAME} may use the VS Code API.` };

/**
 * Each zone is where some files live and what their relative imports may reach: `reach` lists
 * folders (or files, without extension) relative to the repo root, the zone's own included; a core
 * subunit under a reached folder is reached only when listed itself. A zone below the vscode layer
 * names its `layer`, so an import of that layer or of `vscode` says why it is refused.
 */
function unitZone(unit, index) {
  const layer = index < CORE.length ? 'core' : index < CORE.length + PANEL.length ? 'panel' : undefined;
  const isFile = unit.endsWith('.ts');
  return {
    folder: isFile ? unit.slice(0, unit.lastIndexOf('/')) : unit,
    files: isFile ? unit : undefined,
    reach: ORDER.slice(0, index + 1).map(importPath),
    layer,
    message: `${unit} is unit ${index + 1} of the order in eslint.config.mjs: it may import only units before it.`,
    ...(layer && {
      paths: [{ ...VSCODE_API, message: `${unit} is in the ${layer} layer: only ${VSCODE_LAYER_NAME} may use the VS Code API.` }],
      layerMessage: `${unit} is in the ${layer} layer: it may not import ${VSCODE_LAYER_NAME}.`,
    }),
  };
}

const ZONES = [
  ...ORDER.map(unitZone),
  {
    folder: 'src/demo-agent',
    reach: ['src/demo-agent'],
    paths: [{ ...VSCODE_API, message: 'src/demo-agent is a separate agent program: no VS Code API.' }],
    message: 'src/demo-agent is a separate agent program: it speaks ACP and imports nothing of src outside itself.',
  },
  {
    folder: 'webview',
    reach: ['webview', 'src/contract', 'src/util/assertNever'],
    paths: [
      { ...VSCODE_API, message: 'The webview runs in a browser.' },
      { name: '@agentclientprotocol/sdk', message: 'The webview sees the agent only through src/contract.' },
      ...builtinModules.map((name) => ({ name, message: 'The webview runs in a browser: no Node modules.' })),
    ],
    barePatterns: [
      { regex: '^node:', message: 'The webview runs in a browser: no Node modules.' },
      { regex: '^@agentclientprotocol/sdk/', message: 'The webview sees the agent only through src/contract.' },
    ],
    message: 'webview runs in a browser: outside webview/ it may import only src/contract and src/util/assertNever.',
  },
];

// Exact patterns are generated per folder depth (a glob per depth): a regex cannot count `../`,
// but with the depth known, each `../` chain lands in one known folder.
const MAX_NESTING = 4;

// A relative import is written `./x` or `../../x`, with no `.`/`..` after a named segment, none
// at the end and no absolute path, so that the segments after the leading `../` chain are where
// the import lands.
const IMPORT_SHAPE = {
  regex: '^/|^\\./\\.\\.?(/|$)|(^|/)(?!\\.\\.?(/|$))[^/]+/([^/]+/)*\\.\\.?(/|$)|(^|/)\\.\\.?$',
  message: 'Write relative imports as ./x or ../x without inner ./ or ../ segments (and no absolute paths), so the layer rules can read them.',
};

const escapeRegex = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const ending = '(\\.[cm]?[jt]s)?(/|$)';
const anyOf = (rests) => `(${rests.map(escapeRegex).join('|')})${ending}`;

/** The rest of `target` seen from the folder `landing` (segments), or undefined when `target` is not under it. */
function below(landing, target) {
  const segments = target.split('/');
  const inside = landing.every((segment, i) => segments[i] === segment) && segments.length > landing.length;
  return inside ? segments.slice(landing.length).join('/') : undefined;
}

const isWithin = (landing, target) => target.split('/').every((segment, i) => landing[i] === segment);

/** The patterns refusing what an import reaching `landing` through `prefix` may not name from there. */
function landingPatterns(zone, prefix, landing) {
  const rests = (targets) => targets.map((target) => below(landing, target)).filter((rest) => rest !== undefined);
  const ofOtherLayer = zone.layer ? rests(VSCODE.map(importPath)) : [];
  const unreached = CORE_SUBUNITS.filter((unit) => !zone.reach.includes(unit) && zone.reach.some((target) => unit.startsWith(`${target}/`)));
  const subunits = rests(unreached).filter((rest) => !ofOtherLayer.includes(rest));
  const patterns = ofOtherLayer.length > 0 ? [{ regex: `^${prefix}${anyOf(ofOtherLayer)}`, message: zone.layerMessage }] : [];
  const refused = [];
  // A landing inside a reached folder may name anything under it but the subunits it holds.
  if (!zone.reach.some((target) => isWithin(landing, target))) {
    refused.push(`(?!${anyOf([...rests(zone.reach), ...ofOtherLayer])})`);
  }
  if (subunits.length > 0) refused.push(anyOf(subunits));
  if (refused.length > 0) patterns.push({ regex: `^${prefix}(${refused.join('|')})`, message: zone.message });
  return patterns;
}

function zonePatterns(zone, nesting) {
  const segments = zone.folder.split('/');
  const depth = segments.length + nesting;
  const patterns = [IMPORT_SHAPE, { regex: `^(\\.\\./){${depth}}\\.\\.(/|$)`, message: 'This import leaves the repository.' }];
  // With fewer `../` than `nesting`, an import stays inside the zone's own subfolder.
  for (let ups = nesting; ups <= depth; ups++) {
    const prefix = ups === 0 ? '\\./' : `(\\.\\./){${ups}}(?!\\.\\./)`;
    patterns.push(...landingPatterns(zone, prefix, segments.slice(0, depth - ups)));
  }
  return [...patterns, ...(zone.barePatterns ?? [])];
}

// A core's blocks match its panel/ and vscode/ files too: those units come later in ORDER, so their
// blocks come later in the config and win.
function zoneBlocks(zone) {
  const paths = zone.paths ?? [];
  if (zone.files) return [{ files: [zone.files], rules: { 'no-restricted-imports': ['error', { paths, patterns: zonePatterns(zone, 0) }] } }];
  const blocks = Array.from({ length: MAX_NESTING + 1 }, (_, nesting) => ({
    files: [`${zone.folder}/${'*/'.repeat(nesting)}*.ts`],
    rules: { 'no-restricted-imports': ['error', { paths, patterns: zonePatterns(zone, nesting) }] },
  }));
  blocks.push({
    files: [`${zone.folder}/${'*/'.repeat(MAX_NESTING + 1)}**/*.ts`],
    rules: {
      'no-restricted-imports': ['error', {
        paths,
        patterns: [{ regex: '^\\.\\./', message: `Layer folders nest at most ${MAX_NESTING} deep; move this file up or raise MAX_NESTING in eslint.config.mjs.` }],
      }],
    },
  });
  return blocks;
}

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.tools/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
      'max-lines': ['error', { max: 350, skipBlankLines: true, skipComments: true }],
      complexity: ['error', 15],
    },
  },
  {
    // Property tests and end-to-end suites carry their generators and page scripts along.
    files: ['test/**'],
    rules: { 'max-lines': ['error', { max: 450, skipBlankLines: true, skipComments: true }] },
  },
  {
    files: ['scripts/**/*.mjs', 'eslint.config.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
  {
    // A file of src outside every unit (a folder not yet placed in ORDER) is held below the vscode layer.
    files: ['src/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [VSCODE_API], patterns: [IMPORT_SHAPE] }] },
  },
  ...ZONES.flatMap(zoneBlocks),
  {
    files: ['src/**/*.ts', 'webview/**/*.ts'],
    rules: {
      'no-restricted-syntax': ['error',
        // Only third-party packages' own files may load on demand (xterm, highlight.js languages):
        // they hold none of the project's modules, so no layer rule is bypassed.
        ...["ImportExpression:not([source.value=/^(@xterm\\/xterm$|highlight\\.js\\/lib\\/languages\\/)/])", 'TSImportType', "CallExpression[callee.name='require']"].map((selector) => ({
          selector,
          message: 'Import statically, so the layer rules in eslint.config.mjs can check it.',
        })),
      ],
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: { 'no-console': 'error' },
  },
);
