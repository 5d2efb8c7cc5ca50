// One real VS Code for the README claims that need the real Claude adapter (against a scripted
// model server) and more: code-server runs the packaged .vsix on a copy of the sample workspace,
// Chromium acts as the user. Each describe lives in claude-workbench/ (not *.test.ts files, so
// the suite runner does not start them alone) and shares this one window, in this order: the
// API key (it reloads the window twice), the palette, forking, a budget, and the long answer last (it sets
// the adapters' priority to normal for good).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, afterEach, before } from 'node:test';
import { CLAUDE_CODE, openAgentWorkbench } from '../support/agentWorkbench';
import { REPO_ROOT } from '../support/code-server';
import { dismissOverlays } from '../support/panelUser';
import { scriptedAgentDefinition } from '../support/scriptedAgentSpec';
import { SAMPLE_WORKSPACE, tempWorkspace } from '../support/tandemWorkbench';
import { describeApiKeys, SCAN_MARKER } from './claude-workbench/apiKeys';
import { describeBudget } from './claude-workbench/budget';
import { describeFork } from './claude-workbench/fork';
import { describeLongAnswer } from './claude-workbench/longAnswer';
import { describePalette } from './claude-workbench/palette';
import type { ClaudeWorkbench } from './claude-workbench/shared';

let bench: ClaudeWorkbench | undefined;

function workbench(): ClaudeWorkbench {
  if (!bench) throw new Error('the workbench did not open (see the before hook)');
  return bench;
}

before(async () => {
  const where = tempWorkspace('claude-workbench', SAMPLE_WORKSPACE);
  const scripted = scriptedAgentDefinition();
  const tandem = await openAgentWorkbench(where, CLAUDE_CODE, {
    settings: {
      'tandemE2e.scanMarker': SCAN_MARKER,
      // The demo agent's edits go ahead without a question, so the review commands have changes to act on.
      'tandem.permissions.autoAllow': { demo: ['search', 'read', 'edit', 'delete'] },
      // The registry as served, without a network: Add Agent from Registry lists it.
      'tandem.registryUrl': `data:application/json,${encodeURIComponent(readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'registry.json'), 'utf8'))}`,
    },
    agents: {
      'scripted-key': { label: 'Scripted key', command: scripted.command, args: scripted.args, env: { SCRIPTED_AGENT_AUTH: 'apikey' } },
    },
  });
  bench = { tandem, page: tandem.page, panel: tandem.panel, model: tandem.model };
});

afterEach(async () => {
  if (bench) await dismissOverlays(bench.page);
});

after(async () => {
  await bench?.tandem.close();
});

describeApiKeys(workbench);
describePalette(workbench);
describeFork(workbench);
describeBudget(workbench);
describeLongAnswer(workbench);
