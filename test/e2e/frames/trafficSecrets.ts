// Secrets on the wire in a real VS Code, read back where a user sees the traffic: the whole
// "Tandem Traffic" channel (opened before the frames come, so they go through its live redactor
// and its 500 ms hold) and the file "Export Conversation Frames…" writes. The secrets really go
// over the agent's stdio: MCP servers' env and headers from the settings in session/new, a
// terminal's env pair (and the command's output) in terminal/create and terminal/output, and a
// token the agent streams in two message chunks 800 ms apart.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { REDACTED } from '../../../src/redaction/secrets';
import { answerFileDialog, waitForFile } from '../../support/fileDialog';
import { pickAgent, readOutputChannel, send, startFromPalette, turnEnd } from '../../support/panelUser';
import { terminalPrompt } from '../../support/scenarios/terminals';
import { generated } from '../../support/secretFormats';
import type { TandemWorkbench } from '../../support/tandemWorkbench';
import { runCommand, screenshot } from '../../support/workbench';

const MCP_ENV_SECRET = generated(501, 28);
const MCP_HEADER_SECRET = generated(502, 40);
const TERMINAL_TOKEN = `ghp_${generated(503, 36)}`;
const STREAMED_SECRET = `${generated(504, 20)}_${generated(505, 59)}`;
const STREAMED_TOKEN = `github_pat_11${STREAMED_SECRET}`;
/** Where the streamed token is cut between its two chunks: after the prefix and a few characters. */
const CUT = 'github_pat_11'.length + 12;
const SECRETS = { 'MCP env': MCP_ENV_SECRET, 'MCP header': MCP_HEADER_SECRET, 'terminal env': TERMINAL_TOKEN, 'streamed token': STREAMED_SECRET };
/** A leak is any run of this many characters of a secret. */
const LEAK_WINDOW = 8;

/** The user settings the shared workbench starts with for these tests: MCP servers holding secrets. */
export const TRAFFIC_SECRETS_SETTINGS = {
  'tandem.mcpServers': {
    db: { command: 'node', args: ['--version'], env: { DB_PASSWORD: MCP_ENV_SECRET } },
    tracker: { url: 'http://127.0.0.1:9/mcp', headers: { Authorization: `Bearer ${MCP_HEADER_SECRET}` } },
  },
};

let page: Page;
let panel: Frame;

/** Each secret's runs of LEAK_WINDOW characters found in `text`, as "which: run". */
function leaks(text: string): string[] {
  return Object.entries(SECRETS).flatMap(([which, secret]) => {
    const runs = Array.from({ length: secret.length - LEAK_WINDOW + 1 }, (_, start) => secret.slice(start, start + LEAK_WINDOW));
    const found = runs.find((run) => text.includes(run));
    return found ? [`${which}: ${found}`] : [];
  });
}

/** Registers the secret checks on the shared workbench, started with TRAFFIC_SECRETS_SETTINGS. */
export function describeTrafficSecrets(workbench: () => TandemWorkbench): void {
  describe('secrets on the wire in code-server', () => {
    before(() => {
      ({ page, panel } = workbench());
    });

    after(async () => {
      // The channel's output view off the screen, as the tests after these expect it.
      await runCommand(page, 'Hide Panel');
    });

    test('the Tandem Traffic channel and the exported frames show no secret whole, and show where they were', { timeout: 300_000 }, async () => {
      // Open first: the frames then go through the channel's live redactor, held pieces released after 500 ms.
      await startFromPalette(page, 'Show Traffic');
      await pickAgent(panel, 'Scripted agent');
      const script = { create: { command: 'sh', args: ['-c', 'echo deploying with $DEPLOY_TOKEN'], env: { DEPLOY_TOKEN: TERMINAL_TOKEN } }, steps: ['waitOutput:deploying', 'wait', 'release'] };
      await send(panel, terminalPrompt(script));
      assert.equal(await turnEnd(panel, 1), 'end_turn');
      const pieces = [`Your token is ${STREAMED_TOKEN.slice(0, CUT)}`, `${STREAMED_TOKEN.slice(CUT)} and keep it safe.`];
      await send(panel, `slow-chunks ${Buffer.from(JSON.stringify(pieces)).toString('base64')}`);
      assert.equal(await turnEnd(panel, 2), 'end_turn');
      // The agent really said it: the panel shows the conversation as it came.
      assert.match(await panel.locator('.agent-message').last().innerText(), /and keep it safe\./);

      const traffic = await readOutputChannel(page, 'Tandem Traffic');
      await screenshot(page, 'e2e-traffic-secrets');
      assert.match(traffic, /"method":"session\/new"/, 'the channel holds the whole conversation');
      assert.match(traffic, /"method":"terminal\/create"/);
      assert.match(traffic, /and keep it safe\./);
      assert.deepEqual(leaks(traffic), [], 'no secret in the traffic channel');
      for (const where of [/"name":"DB_PASSWORD","value":"«redacted»"/, /"name":"Authorization","value":"«redacted»"/, /"name":"DEPLOY_TOKEN","value":"«redacted»"/, /Your token is «redacted»/]) {
        assert.match(traffic, where, 'the channel marks where a secret was');
      }

      const exported = join(workbench().tmp, 'frames.ndjson');
      await startFromPalette(page, 'Export Conversation Frames…');
      await answerFileDialog(page, exported);
      await waitForFile(exported);
      const file = readFileSync(exported, 'utf8');
      assert.match(file, /terminal\/output/, 'the export holds the whole conversation');
      assert.match(file, /and keep it safe\./);
      assert.deepEqual(leaks(file), [], 'no secret in the export');
      assert.ok(file.split(REDACTED).length - 1 >= 4, 'the export marks where the secrets were');
    });
  });
}
