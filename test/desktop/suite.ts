// Runs inside desktop VS Code's extension host (see run.ts): the real API, the real demo agent.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TandemApi } from '../../src/extension';

async function until<T>(probe: () => T | undefined | null | false, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const checks: [string, (api: TandemApi) => Promise<void>][] = [
  ['every contributed command is registered', async () => {
    const commands = await vscode.commands.getCommands(true);
    for (const id of ['tandem.newSession', 'tandem.cancelTurn', 'tandem.selectAgent', 'tandem.restartAgent', 'tandem.showLog', 'tandem.showTraffic']) {
      assert.ok(commands.includes(id), id);
    }
  }],
  ['the demo agent answers in the panel after a permission', async (api) => {
    await vscode.commands.executeCommand('tandem.chat.focus');
    await until(() => api.state().connection.phase === 'ready', 'the demo agent to be ready');
    const turn = api.sendPrompt('Hello from the desktop suite');
    const tool = await until(() => api.state().entries.find((entry) => entry.kind === 'toolCall' && entry.tool.permission), 'a permission');
    assert.ok(tool.kind === 'toolCall' && tool.tool.permission);
    assert.ok(api.answerPermission(tool.tool.permission.requestId, 'allow-once'));
    await turn;
    const answer = api.state().entries.filter((entry) => entry.kind === 'agentMessage').at(-1);
    assert.ok(answer?.kind === 'agentMessage' && answer.text.includes("Tandem's demo agent"));
  }],
];

export async function run(): Promise<void> {
  const extension = vscode.extensions.all.find((candidate) => candidate.packageJSON?.name === 'tandem');
  assert.ok(extension, 'the Tandem extension is loaded');
  const api = (await extension.activate()) as TandemApi;
  const failures: string[] = [];
  for (const [name, check] of checks) {
    try {
      await check(api);
      console.log(`ok - ${name}`);
    } catch (error) {
      failures.push(name);
      console.log(`not ok - ${name}: ${error instanceof Error ? error.stack : String(error)}`);
    }
  }
  console.log(`${checks.length - failures.length} passed, ${failures.length} failed`);
  if (failures.length > 0) throw new Error(`${failures.length} desktop checks failed`);
}
