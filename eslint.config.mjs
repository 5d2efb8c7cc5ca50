// Lint holds the layers, so a wrong import fails the build instead of waiting for a reviewer:
//   pure cores (acp, thread, review, fs, terminals, agents, contract, util, demo-agent)
//     < permissions, elicitation < conversation < panel < src/vscode, src/extension.ts
// Only src/vscode and src/extension.ts touch the VS Code API; the webview runs in a browser and
// imports only the shared contract. test/unit/layering.test.ts proves every rule below fires.
import js from '@eslint/js';
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';

const PURE_LAYERS = ['src/acp', 'src/thread', 'src/review', 'src/fs', 'src/terminals', 'src/agents', 'src/contract', 'src/util', 'src/inspector'];
const ABOVE_PURE = ['src/conversation', 'src/panel', 'src/permissions', 'src/elicitation', 'src/vscode', 'src/extension'];
const VSCODE_API = { name: 'vscode', message: 'Only src/vscode and src/extension.ts may use the VS Code API.' };

/**
 * Each zone is a folder and what its files may not reach: `deny` lists folders (or files, without
 * extension) relative to the repo root; `allow`, when given, is the only thing outside the folder
 * a relative import may reach.
 */
const ZONES = [
  ...PURE_LAYERS.map((dir) => ({ dir, deny: ABOVE_PURE, why: 'is a pure layer: no conversation, panel, permissions, elicitation or VS Code code' })),
  { dir: 'src/demo-agent', deny: ABOVE_PURE, why: 'is a separate agent program: it speaks ACP and knows nothing of the extension' },
  ...['src/permissions', 'src/elicitation'].map((dir) => ({ dir, deny: ['src/conversation', 'src/panel', 'src/vscode', 'src/extension'], why: 'answers agent requests below the conversation: no conversation, panel or VS Code code' })),
  { dir: 'src/conversation', deny: ['src/panel', 'src/vscode', 'src/extension'], why: 'is one conversation, below the panel: no panel or VS Code code' },
  { dir: 'src/panel', deny: ['src/vscode', 'src/extension'], why: 'presents conversations without the VS Code API: no src/vscode code' },
  {
    dir: 'webview',
    allow: ['src/contract', 'src/util/assertNever'],
    bare: [
      { name: '@agentclientprotocol/sdk', message: 'The webview sees the agent only through src/contract.' },
      ...builtinModules.map((name) => ({ name, message: 'The webview runs in a browser: no Node modules.' })),
    ],
    barePatterns: [
      { regex: '^node:', message: 'The webview runs in a browser: no Node modules.' },
      { regex: '^@agentclientprotocol/sdk/', message: 'The webview sees the agent only through src/contract.' },
    ],
    why: 'runs in a browser: outside webview/ it may import only src/contract and src/util/assertNever',
  },
];

// Exact patterns are generated per folder depth (a glob per depth): a regex cannot count `../`,
// but with the depth known, each `../` chain lands in one known folder.
const MAX_NESTING = 4;

// A relative import is written `./x` or `../../x`, with no `.`/`..` after a named segment and no
// absolute path, so that the segments after the leading `../` chain are where the import lands.
const IMPORT_SHAPE = {
  regex: '^/|^\\./\\.\\.?(/|$)|(^|/)(?!\\.\\.?(/|$))[^/]+/([^/]+/)*\\.\\.?(/|$)',
  message: 'Write relative imports as ./x or ../x without inner ./ or ../ segments (and no absolute paths), so the layer rules can read them.',
};

const escapeRegex = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const up = (count) => `(\\.\\./){${count}}`;
const ending = '(\\.[cm]?[jt]s)?(/|$)';

/** Each way a file `nesting` folders below `zone.dir` can name a folder outside the zone, with the folder it lands in. */
function exits(zoneSegments, nesting) {
  const depth = zoneSegments.length + nesting;
  return Array.from({ length: zoneSegments.length }, (_, i) => {
    const ups = nesting + 1 + i;
    return { ups, landing: zoneSegments.slice(0, depth - ups) };
  });
}

/** The rest of `target` seen from `landing`, or undefined when `target` is not under it. */
function below(landing, target) {
  const segments = target.split('/');
  const inside = landing.every((segment, i) => segments[i] === segment) && segments.length > landing.length;
  return inside ? segments.slice(landing.length).join('/') : undefined;
}

function zonePatterns(zone, nesting) {
  const segments = zone.dir.split('/');
  const depth = segments.length + nesting;
  const message = `${zone.dir} ${zone.why}.`;
  const patterns = [IMPORT_SHAPE, { regex: `^(\\.\\./){${depth}}\\.\\.(/|$)`, message: 'This import leaves the repository.' }];
  for (const { ups, landing } of exits(segments, nesting)) {
    if (zone.allow) {
      const reachable = [zone.dir, ...zone.allow].map((target) => below(landing, target)).filter((rest) => rest !== undefined);
      patterns.push({ regex: `^${up(ups)}(?!(${reachable.map(escapeRegex).join('|')})${ending})`, message });
    } else {
      const denied = zone.deny.map((target) => below(landing, target)).filter((rest) => rest !== undefined);
      if (denied.length > 0) patterns.push({ regex: `^${up(ups)}(${denied.map(escapeRegex).join('|')})${ending}`, message });
    }
  }
  return [...patterns, ...(zone.barePatterns ?? [])];
}

function zoneBlocks(zone) {
  const paths = [...(zone.dir === 'webview' ? [{ ...VSCODE_API, message: 'The webview runs in a browser.' }] : [VSCODE_API]), ...(zone.bare ?? [])];
  const blocks = Array.from({ length: MAX_NESTING + 1 }, (_, nesting) => ({
    files: [`${zone.dir}/${'*/'.repeat(nesting)}*.ts`],
    rules: { 'no-restricted-imports': ['error', { paths, patterns: zonePatterns(zone, nesting) }] },
  }));
  blocks.push({
    files: [`${zone.dir}/${'*/'.repeat(MAX_NESTING + 1)}**/*.ts`],
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
    files: ['src/**/*.ts'],
    ignores: ['src/vscode/**', 'src/extension.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [VSCODE_API], patterns: [IMPORT_SHAPE] }] },
  },
  {
    files: ['src/vscode/**/*.ts', 'src/extension.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [IMPORT_SHAPE] }] },
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
