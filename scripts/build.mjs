// One build for everything that ships: the extension host bundle (Node, CJS), the demo agent
// (a Node program the extension spawns), the webview bundle (browser) with its on-demand chunks, CSS and icons, and the
// frame inspector's bundle and CSS.
import { build, context } from 'esbuild';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const dist = join(root, 'dist');
/** What the webview build wrote, chunk by chunk and who imports whom: read by the bundle bench, kept out of dist so it is never shipped. */
const WEBVIEW_METAFILE = join(root, '.build', 'webview.meta.json');

/**
 * zod's namespace export (`z`) re-exports every locale's messages (about 260 KB minified) and a
 * namespace object defeats tree shaking. Tandem only ever uses the default English messages,
 * which zod imports from `locales/en.js` directly, so the locale index resolves to English alone.
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(plugin) {
    plugin.onResolve({ filter: /locales\/index\.js$/ }, (args) => {
      if (!/[\\/]zod[\\/]/.test(args.importer)) return undefined;
      return { path: join(args.resolveDir, args.path), namespace: 'zod-english-only' };
    });
    plugin.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, (args) => ({
      contents: "export { default as en } from './en.js';",
      resolveDir: dirname(args.path),
      loader: 'js',
    }));
  },
};

const common = { bundle: true, plugins: [zodEnglishOnly], sourcemap: production ? false : 'linked', minify: production, logLevel: 'warning', absWorkingDir: root };
const targets = [
  { ...common, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', platform: 'node', format: 'cjs', target: 'node20', external: ['vscode'] },
  { ...common, entryPoints: ['src/demo-agent/demoAgent.ts'], outfile: 'dist/demo-agent.js', platform: 'node', format: 'cjs', target: 'node20' },
  // An ES module with chunks: xterm and most highlight.js languages load only when the panel first
  // needs them (bench/bundles/bundlesBench.ts reads the metafile to tell what loads when the panel opens).
  {
    ...common, entryPoints: { webview: 'webview/main.ts' }, outdir: 'dist', chunkNames: 'chunks/[name]-[hash]', splitting: true, metafile: true,
    platform: 'browser', format: 'esm', target: 'chrome120',
  },
  { ...common, entryPoints: ['media/panel.css'], outfile: 'dist/webview.css', loader: { '.css': 'css' } },
  // The frame inspector is a tab of its own with its own small bundle: the chat panel does not carry it.
  { ...common, entryPoints: ['webview/inspector/main.ts'], outfile: 'dist/inspector.js', platform: 'browser', format: 'iife', target: 'chrome120' },
  { ...common, entryPoints: ['webview/inspector/inspector.css'], outfile: 'dist/inspector.css', loader: { '.css': 'css' } },
];

rmSync(dist, { recursive: true, force: true });
mkdirSync(join(dist, 'codicons'), { recursive: true });
for (const file of ['codicon.css', 'codicon.ttf']) {
  cpSync(join(root, 'node_modules', '@vscode', 'codicons', 'dist', file), join(dist, 'codicons', file));
}

if (watch) {
  for (const options of targets) await (await context(options)).watch();
  console.log('watching for changes…');
} else {
  const results = await Promise.all(targets.map((options) => build(options)));
  mkdirSync(dirname(WEBVIEW_METAFILE), { recursive: true });
  writeFileSync(WEBVIEW_METAFILE, JSON.stringify(results[targets.findIndex((options) => options.splitting)].metafile));
}
