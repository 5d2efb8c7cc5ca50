// README line 1, `npm ci && npm start`, as a new user runs it: `npm ci` installs Tandem's own
// dependencies without a warning, then scripts/start.sh builds the .vsix, installs it into
// code-server, copies the sample workspace and prints a URL. Chromium opens that URL and the user
// asks the offline demo agent a question in the panel that opened by itself.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { freePort, REPO_ROOT } from '../support/code-server';
import { send, turnEnd, waitForPickedAgent } from '../support/panelUser';
import { launchBrowser, openWorkbench, screenshot, webviewFrame, type WorkbenchBrowser } from '../support/workbench';

let state: string;
let start: ChildProcess | undefined;
let output = '';
let browser: WorkbenchBrowser | undefined;

/** The URL start.sh prints, once it printed it (bounded: it builds and installs first). */
async function printedUrl(timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const url = /Tandem is running in VS Code: (http:\/\/127\.0\.0\.1:\d+\/\S+)/.exec(output)?.[1];
    if (url) return url;
    if (start?.exitCode !== null) throw new Error(`start.sh exited (${start?.exitCode}) before printing a URL:\n${output.slice(-3000)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`start.sh printed no URL within ${timeoutMs} ms:\n${output.slice(-3000)}`);
}

/** Polls the printed server until it answers, bounded. */
async function answers(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ok = await fetch(new URL('/healthz', url), { signal: AbortSignal.timeout(2_000) }).then((res) => res.ok, () => false);
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms:\n${output.slice(-3000)}`);
}

before(() => {
  state = mkdtempSync(join(tmpdir(), 'tandem-start-'));
});

after(async () => {
  await browser?.close();
  const pid = start?.pid;
  if (pid !== undefined && start?.exitCode === null) {
    // start.sh execs code-server in its own process group: end the whole group, then wait for it.
    process.kill(-pid, 'SIGTERM');
    const exited = new Promise((resolve) => start?.once('exit', resolve));
    const timer = setTimeout(() => process.kill(-pid, 'SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
  rmSync(state, { recursive: true, force: true });
});

/** The environment without what an outer npm (`npm test`) passes to its scripts. */
function withoutNpmConfig(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('npm_')));
}

describe('npm ci', () => {
  test('installs Tandem\'s manifest and lock without a single npm warning', { timeout: 300_000 }, () => {
    const clone = mkdtempSync(join(tmpdir(), 'tandem-npm-ci-'));
    try {
      for (const file of ['package.json', 'package-lock.json']) copyFileSync(join(REPO_ROOT, file), join(clone, file));
      const run = spawnSync('npm', ['ci'], { cwd: clone, env: withoutNpmConfig(), encoding: 'utf8', timeout: 280_000 });
      const printed = `${run.stdout}${run.stderr}`;
      assert.equal(run.status, 0, printed);
      assert.deepEqual(printed.split('\n').filter((line) => /^npm warn/i.test(line)), [], 'no engine, install-script or deprecation warning');
      for (const program of ['esbuild', 'vsce']) assert.ok(existsSync(join(clone, 'node_modules', '.bin', program)), `npm run package has ${program}`);
    } finally {
      rmSync(clone, { recursive: true, force: true });
    }
  });
});

describe('npm start', () => {
  test('start.sh prints a URL; there the panel is open with the demo agent, which answers', { timeout: 600_000 }, async () => {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, TANDEM_PORT: String(port), TANDEM_USE_CODE_SERVER: '1', XDG_STATE_HOME: state };
    // No display: the browser route, as on a server. Nothing of the outer editor may redirect it.
    for (const key of Object.keys(env)) if (/^(DISPLAY|WAYLAND_DISPLAY|VSCODE_)/.test(key)) delete env[key];
    start = spawn('bash', [join(REPO_ROOT, 'scripts', 'start.sh')], { cwd: REPO_ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    start.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    start.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const url = await printedUrl(480_000);
    assert.doesNotMatch(output, /^npm warn/im, 'start.sh prints no npm warning');
    assert.equal(new URL(url).port, String(port), 'the port asked for in TANDEM_PORT');
    const folder = new URL(url).searchParams.get('folder') ?? '';
    assert.equal(folder, join(state, 'tandem', 'sample-workspace'), 'a copy of the sample, outside the clone');
    assert.equal(readFileSync(join(folder, 'src', 'greeting.ts'), 'utf8'), readFileSync(join(REPO_ROOT, 'scripts', 'sample-workspace', 'src', 'greeting.ts'), 'utf8'));
    await answers(url, 60_000);

    browser = await launchBrowser({ viewport: { width: 1400, height: 900 } });
    const page: Page = await openWorkbench(browser, url);
    // The panel opens with the window (no palette needed), with the demo agent picked.
    const panel = await webviewFrame(page, '#tandem-root', 90_000);
    await waitForPickedAgent(panel, 'demo', 30_000);
    await send(panel, 'What is in this workspace?');
    const allow = panel.locator('.tool-card .permission-options').getByRole('button', { name: 'Allow', exact: true });
    await allow.waitFor({ timeout: 60_000 });
    await allow.click();
    assert.equal(await turnEnd(panel, 1), 'end_turn');
    const answer = await panel.locator('.agent-message').last().innerText();
    assert.match(answer, /README\.md/);
    assert.match(answer, /package\.json[\s\S]*src\//, 'the sample workspace\'s own entries');
    // Nothing of VS Code's own chat beside it, and no offer to open a parent git repository.
    assert.equal(await page.locator('.part.auxiliarybar:visible').count(), 0, 'the secondary side bar (VS Code\'s chat) stays closed');
    const notices = await page.locator('.notifications-toasts .notification-toast').allInnerTexts();
    assert.ok(!notices.some((text) => /git repositor/i.test(text)), `no git prompt: ${JSON.stringify(notices)}`);
    await screenshot(page, 'npm-start-answer');
    assert.ok(existsSync(join(state, 'tandem', 'user-data', 'User', 'settings.json')), 'its profile lives in the state folder');
  });
});
