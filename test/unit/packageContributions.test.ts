import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { repoRoot } from '../support/scriptedAgentSpec';
import { toolKinds } from '../../src/contract/toolKinds';

interface Manifest {
  contributes: {
    commands: { command: string; category?: string }[];
    menus: Record<string, { command: string }[]>;
    keybindings: { command: string }[];
    views: Record<string, { id: string }[]>;
    configuration: { properties: Record<string, { additionalProperties?: { items?: { enum?: string[] } } }> };
  };
}

const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as Manifest;
const vscodeSources = readdirSync(join(repoRoot, 'src', 'vscode'), { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.ts')).map((file) => readFileSync(join(repoRoot, 'src', 'vscode', file), 'utf8'));
const registered = vscodeSources.flatMap((source) => [...source.matchAll(/registerCommand\('([^']+)'/g)].map((match) => match[1]));

describe('package.json contributions', () => {
  test('every contributed command is registered, and every registered command contributed, in the Tandem category', () => {
    const contributed = manifest.contributes.commands.map((command) => command.command).sort();
    assert.deepEqual(contributed, [...registered].sort());
    assert.ok(manifest.contributes.commands.every((command) => command.category === 'Tandem'));
  });

  test('menus and keybindings only name contributed commands', () => {
    const known = new Set(manifest.contributes.commands.map((command) => command.command));
    const used = [...Object.values(manifest.contributes.menus).flat(), ...manifest.contributes.keybindings].map((item) => item.command);
    assert.deepEqual(used.filter((command) => !known.has(command)), []);
  });

  test('the auto-allow setting offers exactly the tool kinds the code knows', () => {
    const offered = manifest.contributes.configuration.properties['tandem.permissions.autoAllow']?.additionalProperties?.items?.enum;
    assert.deepEqual(offered, [...toolKinds]);
  });

  test('the chat view id matches the provider', () => {
    const source = readFileSync(join(repoRoot, 'src', 'vscode', 'chatViewProvider.ts'), 'utf8');
    const viewId = /static readonly viewId = '([^']+)'/.exec(source)?.[1];
    assert.ok(Object.values(manifest.contributes.views).flat().some((view) => view.id === viewId));
  });

  test('.vscodeignore ships only dist, media, README, LICENSE and CHANGELOG', () => {
    const lines = readFileSync(join(repoRoot, '.vscodeignore'), 'utf8').split('\n').map((line) => line.trim()).filter((line) => line && !line.startsWith('#'));
    assert.equal(lines[0], '**');
    assert.deepEqual(lines.slice(1).sort(), ['!CHANGELOG.md', '!LICENSE', '!README.md', '!dist/**', '!media/**'].sort());
  });
});
