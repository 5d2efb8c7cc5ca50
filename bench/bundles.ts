// The production bundles' sizes in dist/ (as `npm run build` left them): what a user downloads and loads.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { repoRoot } from '../test/support/scriptedAgentSpec';
import { single, type Bench, type Figures } from './figures';
import { count, table } from './report';

const BUNDLES = [
  { key: 'webview', file: 'webview.js' },
  { key: 'webviewCss', file: 'webview.css' },
  { key: 'extension', file: 'extension.js' },
];

export const bundlesBench: Bench = {
  name: 'bundles',
  title: 'Bundle sizes (production build in dist/)',
  run() {
    const figures: Figures = {};
    const rows = BUNDLES.map(({ key, file }) => {
      const full = path.join(repoRoot, 'dist', file);
      const bytes = statSync(full).size;
      const gzipBytes = gzipSync(readFileSync(full)).length;
      figures[`bundles.${key}Bytes`] = single(bytes, 'bytes');
      figures[`bundles.${key}GzipBytes`] = single(gzipBytes, 'bytes');
      return [file, count(bytes), count(gzipBytes)];
    });
    const lines = [table([{ title: 'file' }, { title: 'bytes', align: 'right' }, { title: 'gzip', align: 'right' }], rows)];
    return Promise.resolve({ section: 'bundles', figures, lines });
  },
};
