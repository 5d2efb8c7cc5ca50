import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { SETTINGS } from '../../src/util/ids';
import { repoRoot } from '../support/scriptedAgentSpec';

interface Manifest {
  capabilities: { untrustedWorkspaces: { restrictedConfigurations: string[] } };
  contributes: { configuration: { properties: Record<string, { scope?: string }> } };
}

const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as Manifest;

describe('settings a workspace cannot set', () => {
  test('opening the panel at startup is the user\'s choice: application scope, and restricted in untrusted workspaces', () => {
    assert.equal(manifest.contributes.configuration.properties[SETTINGS.revealOnStartup]?.scope, 'application');
    assert.ok(manifest.capabilities.untrustedWorkspaces.restrictedConfigurations.includes(SETTINGS.revealOnStartup));
  });
});
