// A real agent behind the panel's presenter, as the extension wires it, for the real-agent tests:
// what the webview was sent, the frames on the wire, and the fixtures those tests share.
import { FrameStore } from '../../src/acp/frames';
import type { ConversationView } from '../../src/contract/conversationView';
import type { HostToWebview } from '../../src/contract/messages';
import type { SessionController } from '../../src/conversation/sessionController';
import type { ReviewSource } from '../../src/review/reviewSource';
import { ChatPresenter } from '../../src/panel/chatPresenter';
import { silentLogger } from '../../src/util/logger';
import type { AgentSpec } from './real-agents';
import { definitionFromSpec } from './realAgentDefinitions';
import { waitFor } from './waitFor';
import { folderScope } from '../../src/workspace/workspaceScope';

export const TEN_LINES = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

export interface WireFrame { method?: string; id?: number; params?: Record<string, unknown>; result?: Record<string, unknown> }

/** The frames of one direction, parsed. */
export const wireFrames = (frames: FrameStore, direction: 'in' | 'out'): WireFrame[] =>
  frames.frames().filter((frame) => frame.direction === direction).map((frame) => JSON.parse(frame.text) as WireFrame);

export interface AgentPanelOptions {
  /** How the agent is stopped at the end (default: stopAgent). */
  stop?: (session: SessionController) => Promise<void>;
  /** Cleans up what the test started besides the agent (its model server, its spec's folders). */
  cleanup: () => Promise<void> | void;
  /** The pending changes the panel reviews (none by default). */
  review?: ReviewSource;
}

/** A panel presenter over the real agent of `spec`, opened (its session live); closed after the test. */
export async function openAgentPanel(t: { after(fn: () => unknown): void }, spec: AgentSpec, options: AgentPanelOptions) {
  const frames = new FrameStore();
  const posted: HostToWebview[] = [];
  const presenter = new ChatPresenter(() => [definitionFromSpec(spec)], spec.name, { workspace: () => folderScope(spec.cwd), trusted: true, frames, logger: silentLogger },
    (message) => posted.push(message),
    { showLog: () => undefined, showTraffic: () => undefined, openLink: () => undefined, rememberAgent: () => undefined }, options.review ?? null);
  t.after(async () => {
    await (options.stop ?? ((session) => session.stopAgent()))(presenter.currentSession);
    presenter.dispose();
    await options.cleanup();
  });
  await presenter.handle({ type: 'ready' });
  await waitFor(() => presenter.currentSession.live, `the ${spec.name} session to open`, 60_000);
  const conversation = (): ConversationView | undefined => posted.flatMap((message) => (message.type === 'conversationChanged' ? [message.conversation] : [])).at(-1);
  return { frames, posted, presenter, conversation };
}
