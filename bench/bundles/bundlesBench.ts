// The production bundles' sizes in dist/ (as `npm run build` left them): what a user downloads and loads.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { repoRoot } from '../../test/support/scriptedAgentSpec';
import { single, type Bench, type Figures } from '../shared/figures';
import { count, table } from '../shared/report';

/** The webview entry as the metafile names its output (paths relative to the repository). */
const WEBVIEW_ENTRY = 'dist/webview.js';

const SINGLE_FILES = [
  { key: 'webviewCss', file: 'webview.css' },
  { key: 'extension', file: 'extension.js' },
];

interface Metafile {
  outputs: Record<string, { imports: { path: string; kind: string }[] }>;
}

interface Sized {
  bytes: number;
  gzipBytes: number;
}

/** Bytes on disk, and gzipped, of files given by their path relative to the repository. */
function measure(files: string[]): Sized {
  let bytes = 0;
  let gzipBytes = 0;
  for (const file of files) {
    const full = path.join(repoRoot, file);
    bytes += statSync(full).size;
    gzipBytes += gzipSync(readFileSync(full)).length;
  }
  return { bytes, gzipBytes };
}

/** The webview's script files: those a panel loads as it opens (the entry and its static imports), and every one it can load. */
function webviewFiles(): { initial: string[]; all: string[] } {
  const { outputs } = JSON.parse(readFileSync(path.join(repoRoot, '.build', 'webview.meta.json'), 'utf8')) as Metafile;
  const initial = new Set<string>();
  const visit = (file: string) => {
    if (initial.has(file)) return;
    initial.add(file);
    for (const { path: imported, kind } of outputs[file]?.imports ?? []) if (kind === 'import-statement') visit(imported);
  };
  visit(WEBVIEW_ENTRY);
  return { initial: [...initial], all: Object.keys(outputs).filter((file) => file.endsWith('.js')) };
}

export const bundlesBench: Bench = {
  name: 'bundles',
  title: 'Bundle sizes (production build in dist/)',
  run() {
    const figures: Figures = {};
    const record = (key: string, sized: Sized) => {
      figures[`bundles.${key}Bytes`] = single(sized.bytes, 'bytes');
      figures[`bundles.${key}GzipBytes`] = single(sized.gzipBytes, 'bytes');
    };
    const { initial, all } = webviewFiles();
    const opening = measure(initial);
    const everything = measure(all);
    const largestOnDemand = all.filter((file) => !initial.includes(file)).map((file) => ({ file, ...measure([file]) })).sort((a, b) => b.bytes - a.bytes)[0];
    // bundles.webviewBytes: what the panel loads when it opens; webviewTotal: every chunk it can load.
    record('webview', opening);
    record('webviewTotal', everything);
    figures['bundles.webviewChunks'] = single(all.length, 'count');
    const rows = [
      [`webview on open (${initial.length} files)`, count(opening.bytes), count(opening.gzipBytes)],
      [`webview, every chunk (${all.length} files)`, count(everything.bytes), count(everything.gzipBytes)],
      ...(largestOnDemand ? [[`  largest on demand: ${path.basename(largestOnDemand.file)}`, count(largestOnDemand.bytes), count(largestOnDemand.gzipBytes)]] : []),
      ...SINGLE_FILES.map(({ key, file }) => {
        const sized = measure([path.join('dist', file)]);
        record(key, sized);
        return [file, count(sized.bytes), count(sized.gzipBytes)];
      }),
    ];
    const lines = [table([{ title: 'file' }, { title: 'bytes', align: 'right' }, { title: 'gzip', align: 'right' }], rows)];
    return Promise.resolve({ section: 'bundles', figures, lines });
  },
};
