/**
 * Sessions and presenters on the scripted agent, built one way for every unit test: a temporary
 * workspace, a frame store, a silent log, a trusted folder, and the agent in memory unless a
 * test asks for a real process. Everything built is disposed when the test ends.
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, type TestContext } from 'node:test';
import { FrameStore } from '../../src/acp/frames';
import type { AgentDefinition } from '../../src/agents/agentConfig';
import type { HostToWebview } from '../../src/contract/messages';
import { SessionController } from '../../src/conversation/sessionController';
import type { SessionEnvironment } from '../../src/conversation/sessionEnvironment';
import { ChatPresenter } from '../../src/panel/chatPresenter';
import { type EditorActions } from '../../src/panel/editorActions';
import type { ReviewSource } from '../../src/review/reviewSource';
import type { TranscriptStorage } from '../../src/panel/transcripts';
import { silentLogger } from '../../src/util/logger';
import { startScriptedAgentInMemory } from './inMemoryAgent';
import { scriptedAgentDefinition } from './scriptedAgentSpec';
import { waitFor } from './waitFor';
import { folderScope, type FolderScopeParts } from '../../src/workspace/workspaceScope';

/**
 * What node:test's test context offers for cleaning up. node:test's own `after`, passed as
 * `{ after }`, is the scope of the calling file or `describe`: what all its tests share.
 */
export interface TestScope {
  after(fn: () => unknown): void;
}

/**
 * `beforeEach` whose hook gets the test it runs for, so what it makes is cleaned up when that test
 * ends. node:test passes the test's context; its types also admit a suite's, which has no `after`.
 */
export function beforeEachTest(fn: (t: TestContext) => unknown): void {
  beforeEach((context) => fn(context as TestContext));
}

const cleanups = new WeakMap<TestScope, (() => unknown)[]>();

/**
 * Runs `cleanup` when the test ends, last registered first: sessions stop before the workspace
 * they write to is removed (node:test itself runs `after` hooks first registered first).
 */
export function onTestEnd(t: TestScope, cleanup: () => unknown): void {
  let stack = cleanups.get(t);
  if (!stack) {
    const created: (() => unknown)[] = [];
    cleanups.set(t, created);
    t.after(async () => {
      for (const next of created.reverse()) await next();
    });
    stack = created;
  }
  stack.push(cleanup);
}

/** A new empty folder (its real path, as agents and terminals report it), removed when the test ends. */
export function tempWorkspace(t: TestScope, prefix = 'tandem-test-'): string {
  const folder = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  onTestEnd(t, () => rmSync(folder, { recursive: true, force: true }));
  return folder;
}

export interface EnvironmentOptions extends Partial<Omit<SessionEnvironment, 'workspace' | 'startAgent'>> {
  /** The session's folder; by default a new one for this test. */
  workspace?: string;
  /** What the folder's scope offers its sessions (files, commands, review); nothing by default. */
  scope?: FolderScopeParts;
  /** 'process' spawns the scripted agent: only for tests whose point is the process. */
  agent?: 'memory' | 'process';
}

export interface ScriptedEnvironment extends SessionEnvironment {
  /** The folder every conversation of this environment works in. */
  workspaceRoot: string;
  frames: FrameStore;
}

/** An environment in a folder the caller owns. */
export function scriptedEnvironmentIn(workspace: string, options: Omit<EnvironmentOptions, 'workspace'> = {}): ScriptedEnvironment {
  const { agent = 'memory', scope, ...rest } = options;
  return {
    workspaceRoot: workspace,
    workspace: () => folderScope(workspace, scope),
    trusted: true,
    frames: new FrameStore(),
    logger: silentLogger,
    ...rest,
    ...(agent === 'memory' ? { startAgent: startScriptedAgentInMemory } : {}),
  };
}

export function scriptedEnvironment(t: TestScope, options: EnvironmentOptions = {}): ScriptedEnvironment {
  const { workspace, ...rest } = options;
  const environment = scriptedEnvironmentIn(workspace ?? tempWorkspace(t), rest);
  // Its background redaction must not run on into the next test.
  onTestEnd(t, () => environment.frames.dispose());
  return environment;
}

export interface AgentOptions {
  /** The scripted agent's SCRIPTED_* options. */
  env?: Record<string, string>;
  /** Changes to its agent definition. */
  definition?: Partial<AgentDefinition>;
}

/** Either an environment built for this session, or one shared with other sessions of the test. */
type EnvironmentChoice = { environment: ScriptedEnvironment } | (EnvironmentOptions & { environment?: undefined });

export type ScriptedSessionOptions = AgentOptions & EnvironmentChoice;

export function scriptedDefinition(options: AgentOptions = {}): AgentDefinition {
  return { ...scriptedAgentDefinition(options.env), ...options.definition };
}

function environmentFor(t: TestScope, options: EnvironmentChoice): ScriptedEnvironment {
  return options.environment ?? scriptedEnvironment(t, options);
}

/** A SessionController on the scripted agent, disposed when the test ends. */
export function scriptedSession(t: TestScope, options: ScriptedSessionOptions = {}): SessionController {
  const session = new SessionController(scriptedDefinition(options), environmentFor(t, options));
  onTestEnd(t, () => session.dispose());
  return session;
}

export type ScriptedPresenterOptions = ScriptedSessionOptions & {
  /** The agents the panel offers; by default the scripted agent alone. */
  agents?: AgentDefinition[];
  actions?: Partial<EditorActions>;
  review?: ReviewSource | null;
  transcripts?: TranscriptStorage | null;
};

export interface ScriptedPresenter {
  presenter: ChatPresenter;
  /** Every message the presenter posted to its webview, in order. */
  posted: HostToWebview[];
  environment: ScriptedEnvironment;
  session(): SessionController;
  /** What the user sent to the agent, in order (the thread's user messages). */
  sentToAgent(): string[];
  /** The panel says it is ready, and the agent is connected. */
  ready(): Promise<void>;
  /** Also done when the test ends; doing it earlier is what a closed window does. */
  dispose(): void;
}

export const quietActions: EditorActions = { showLog: () => undefined, showTraffic: () => undefined, openLink: () => undefined, rememberAgent: () => undefined };

/** A ChatPresenter on the scripted agent whose posted messages are recorded. */
export function scriptedPresenter(t: TestScope, options: ScriptedPresenterOptions = {}): ScriptedPresenter {
  const environment = environmentFor(t, options);
  const agents = options.agents ?? [scriptedDefinition(options)];
  const posted: HostToWebview[] = [];
  const presenter = new ChatPresenter(() => agents, agents[0]?.id ?? 'scripted', environment, (message) => posted.push(message),
    { ...quietActions, ...options.actions }, options.review ?? null, options.transcripts ?? null);
  let disposed = false;
  const dispose = () => {
    if (disposed) return;
    disposed = true;
    presenter.dispose();
  };
  onTestEnd(t, dispose);
  const session = () => presenter.currentSession;
  return {
    presenter, posted, environment, session, dispose,
    sentToAgent: () => session().thread.snapshot().flatMap((entry) => (entry.kind === 'user' ? [entry.text] : [])),
    ready: async () => {
      await presenter.handle({ type: 'ready' });
      await waitFor(() => session().connectionView.phase === 'ready', 'agent ready');
    },
  };
}
