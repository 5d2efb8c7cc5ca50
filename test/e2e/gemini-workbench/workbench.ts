// The one code-server the Gemini CLI suites share (see gemini-workbench.e2e.test.ts): the packaged
// .vsix on a copy of the sample workspace, the real Gemini CLI against a scripted model server, the
// shipped demo agent, the scripted agents the panel tests pick, the bytes agent of the review and
// checkpoint tests, the same agent behind a tap on its stdin for the feedback tests, and the ACP
// registry fixture over HTTP. Each suite's settings that would change another's are set by that
// suite when it starts (suiteStart.ts), as a user edits settings.json.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { REPO_ROOT } from '../../support/code-server';
import { GEMINI_CLI, openAgentWorkbench, type AgentWorkbench } from '../../support/agentWorkbench';
import type { ScriptedModelServer } from '../../support/model-servers/script';
import { scriptedAgentDefinition, tsxLoader } from '../../support/scriptedAgentSpec';
import { SAMPLE_WORKSPACE, tempWorkspace } from '../../support/tandemWorkbench';

export interface GeminiWorkbench {
  tandem: AgentWorkbench;
  tmp: string;
  workspace: string;
  page: Page;
  /** The panel's frame now: a test that hides the panel or reloads the window finds it again and sets it here. */
  panel: Frame;
  model: ScriptedModelServer;
  /** Where the feedback agent's tap logs every session/prompt it receives (promptTap.ts). */
  promptLog: string;
}

/** What a suite module is given: the shared workbench, once `before` has opened it. */
export type WorkbenchGetter = () => GeminiWorkbench;

/** The ACP registry fixture over HTTP on 127.0.0.1, as the real registry is served to users. */
function serveRegistryFixture(): Promise<{ url: string; close(): Promise<void> }> {
  const body = readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'registry.json'));
  const http = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(body);
  });
  return new Promise((resolve) => http.listen(0, '127.0.0.1', () => {
    const address = http.address() as AddressInfo;
    resolve({ url: `http://127.0.0.1:${address.port}/registry.json`, close: () => new Promise((done) => http.close(() => done())) });
  }));
}

/** Opens the shared workbench; its close() also stops the registry fixture. */
export async function openGeminiWorkbench(): Promise<GeminiWorkbench> {
  const { tmp, workspace } = tempWorkspace('e2e', SAMPLE_WORKSPACE);
  const registry = await serveRegistryFixture();
  const scripted = scriptedAgentDefinition();
  const bytesAgent = ['--import', tsxLoader, join(REPO_ROOT, 'test', 'e2e', 'reviewBytesAgent.ts')];
  const promptLog = join(tmp, 'prompts.jsonl');
  try {
    const tandem = await openAgentWorkbench({ tmp, workspace }, GEMINI_CLI, {
      settings: {
        'tandem.defaultAgent': 'demo',
        'tandem.registryUrl': registry.url,
        // The DOM renderer, so a test can read what the terminal panel shows.
        'terminal.integrated.gpuAcceleration': 'off',
      },
      agents: {
        scripted: { label: 'Scripted agent', command: scripted.command, args: scripted.args },
        'scripted-conversation': { label: 'Scripted conversation', command: scripted.command, args: scripted.args, env: { SCRIPTED_AGENT_OPTIONS: 'config' } },
        'scripted-signin': {
          label: 'Scripted sign-in', command: scripted.command, args: scripted.args,
          env: { SCRIPTED_AGENT_AUTH: 'session', SCRIPTED_AGENT_AUTH_MARKER: join(tmp, 'signed-in') },
        },
        bytes: { label: 'Bytes agent', command: process.execPath, args: bytesAgent },
        feedback: {
          label: 'Feedback agent', command: process.execPath,
          args: ['--import', tsxLoader, join(REPO_ROOT, 'test', 'e2e', 'promptTap.ts'), ...bytesAgent], env: { TANDEM_PROMPT_LOG: promptLog },
        },
      },
    });
    const close = async () => {
      await registry.close();
      await tandem.close();
    };
    return { tandem: { ...tandem, close }, tmp, workspace, page: tandem.page, panel: tandem.panel, model: tandem.model, promptLog };
  } catch (error) {
    await registry.close();
    throw error;
  }
}

/** Polls a condition of the editor, the panel or the disk, bounded. */
export async function until(condition: () => Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
