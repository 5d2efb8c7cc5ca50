import { scriptedAgentDefinition } from '../../test/support/scriptedAgentSpec';
import { launchBrowser, type WorkbenchBrowser } from '../../test/support/workbench';
import type { BenchContext, BenchOptions } from './figures';
import type { HandshakeTarget } from './agentLaunch';
import { compileScriptedAgent, makeScratch, type Cleanup } from './resources';

/** The viewport of the panel benches: about the width of a side bar panel. */
export const PANEL_VIEWPORT = { width: 560, height: 900 };

/** Resources are started only when a selected bench asks for them, and at most once. */
function once<T>(start: () => Promise<T>): () => Promise<T> {
  let started: Promise<T> | undefined;
  return () => (started ??= start());
}

export function createContext(options: BenchOptions, cleanup: Cleanup, progress: (line: string) => void): BenchContext {
  let scratch: ReturnType<typeof makeScratch> | undefined;
  const scratchDir = (name: string) => (scratch ??= makeScratch(cleanup)).dir(name);
  const scriptedAgent = once(async (): Promise<HandshakeTarget> => {
    const agentDir = scratchDir('agent');
    progress(`compiling the scripted agent with esbuild into ${agentDir}`);
    const compiled = await compileScriptedAgent(agentDir);
    const workspace = scratchDir('workspace');
    return {
      name: 'scripted agent (compiled .mjs)',
      launch: () => ({ definition: { ...scriptedAgentDefinition(), args: [compiled] }, cwd: workspace, preSession: [], dispose: () => undefined }),
    };
  });
  const browser = once(async (): Promise<WorkbenchBrowser> => {
    const launched = await launchBrowser({ viewport: PANEL_VIEWPORT });
    cleanup.add('close Chromium', () => launched.close());
    return launched;
  });
  return { options, cleanup, progress, scratchDir, scriptedAgent, browser };
}
