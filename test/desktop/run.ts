// `npm run test:desktop`: the VS Code API integration suite in desktop VS Code, downloaded by
// @vscode/test-electron (so it needs network access, and a display or xvfb-run). The suite is
// bundled with esbuild into a temp folder and loaded by VS Code's extension test runner.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runTests } from '@vscode/test-electron';
import { build } from 'esbuild';

const repo = join(__dirname, '..', '..');

async function main(): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'tandem-desktop-'));
  try {
    const suite = join(scratch, 'suite.js');
    await build({ entryPoints: [join(__dirname, 'suite.ts')], outfile: suite, bundle: true, platform: 'node', format: 'cjs', external: ['vscode'], logLevel: 'warning' });
    const workspace = join(scratch, 'workspace');
    cpSync(join(repo, 'scripts', 'sample-workspace'), workspace, { recursive: true });
    await runTests({
      extensionDevelopmentPath: repo,
      extensionTestsPath: suite,
      launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust', `--user-data-dir=${join(scratch, 'user-data')}`],
    });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
