// Runs inside desktop VS Code's extension host (see run.ts). It sees Tandem only as any other
// extension does: Tandem hands other extensions nothing, so these checks need no privileged API.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';

interface Manifest {
  contributes: { commands: { command: string }[] };
}

function tandem(): vscode.Extension<unknown> {
  const extension = vscode.extensions.all.find((candidate) => (candidate.packageJSON as { name?: string } | undefined)?.name === 'tandem');
  assert.ok(extension, 'the Tandem extension is loaded');
  return extension;
}

const checks: [string, () => Promise<void>][] = [
  ['the extension activates and exports nothing to other extensions', async () => {
    const extension = tandem();
    assert.equal(await extension.activate(), undefined);
    assert.ok(extension.isActive);
    assert.equal(extension.exports, undefined);
  }],
  ['every contributed command is registered', async () => {
    const contributed = (tandem().packageJSON as Manifest).contributes.commands.map((entry) => entry.command);
    assert.ok(contributed.length > 0, 'the manifest contributes commands');
    const registered = new Set(await vscode.commands.getCommands(true));
    assert.deepEqual(contributed.filter((id) => !registered.has(id)), []);
  }],
  ['the Tandem view opens through its focus command', async () => {
    await vscode.commands.executeCommand('tandem.chat.focus');
  }],
];

export async function run(): Promise<void> {
  const failures: string[] = [];
  for (const [name, check] of checks) {
    try {
      await check();
      console.log(`ok - ${name}`);
    } catch (error) {
      failures.push(name);
      console.log(`not ok - ${name}: ${error instanceof Error ? error.stack : String(error)}`);
    }
  }
  console.log(`${checks.length - failures.length} passed, ${failures.length} failed`);
  if (failures.length > 0) throw new Error(`${failures.length} desktop checks failed`);
}
