import type * as acp from '@agentclientprotocol/sdk';
import type { FsPort, TerminalPort } from '../acp/clientPorts';
import type { FrameStore } from '../acp/frames';
import type { McpServerChoice, McpServerOffer } from '../agents/mcpServers';
import type { TerminalDisplays } from '../terminals/terminalDisplays';
import type { ThreadModel } from '../thread/threadModel';
import type { Disposable } from '../util/disposable';
import type { Logger } from '../util/logger';
import type { PermissionPolicy } from '../permissions/permissionPolicy';
import type { ApiKeyStore, SignInRunner } from './signIn';
import type { AgentHostPool } from '../acp/agentHost';
import type { AgentStarter } from '../acp/agentChannel';
import type { StartupStage } from '../contract/startupView';
import type { AgentPriority } from '../util/processPriority';

/** What a session's services get to work with. */
export interface SessionContext {
  /** Tells this conversation's changes from other conversations' (e.g. for undo notes). */
  key: string;
  /** The session's cwd: the first workspace folder. */
  cwd: string;
  thread: ThreadModel;
  logger: Logger;
  /** Every `session/update` of this session, after the thread applied it. */
  onUpdate(listener: (update: acp.SessionUpdate) => void): Disposable;
  /**
   * The tool call of each permission request, before it is answered: some agents (OpenCode) name
   * the file a call will change, and send its diff, only there.
   */
  onPermissionRequest(listener: (toolCall: acp.ToolCallUpdate) => void): Disposable;
  /** Who the agent said it is in `initialize` (null until then). */
  agentInfo(): acp.Implementation | null;
  /** The session's terminals as the user sees them; a terminal service feeds its own in. */
  terminalDisplays: TerminalDisplays;
  /** Whether the agent works on a prompt: its turn runs (from before the agent starts for it), or the agent has not answered it yet. */
  promptUnderWay(): boolean;
}

/**
 * Optional services a session offers the agent. Each is created per agent connection and
 * disposed when it ends; a missing one is simply not advertised.
 */
export interface SessionServices {
  createFs?(context: SessionContext): FsPort & Disposable;
  createTerminals?(context: SessionContext): TerminalPort & Disposable;
}

export interface SessionEnvironment {
  /** The session's cwd; null when no folder is open. */
  workspaceRoot: string | null;
  /** Restricted Mode: agents run programs and change files, so none is started. */
  trusted: boolean;
  frames: FrameStore;
  logger: Logger;
  services?: SessionServices;
  /**
   * The MCP servers to pass in session/new, load and resume, awaited before each: the user's own,
   * and those of project files the user said yes to (asking first where needed). A plain list is
   * servers that need no consent.
   */
  mcpServers?(): Promise<McpServerOffer> | readonly McpServerChoice[];
  /** Runs agents' login programs; without it terminal sign-in is not offered. */
  signIn?: SignInRunner;
  /** API keys the user gave Tandem for agents, passed to them as environment variables. */
  apiKeys?: ApiKeyStore;
  /** Agent processes shared by this window's sessions; without it each session starts its own. */
  agentHosts?: AgentHostPool;
  /** Tandem's own permission policy (auto-allow by kind, kept grants); without it every request is asked. */
  permissionPolicy?: PermissionPolicy;
  /** How agents are started; by default each is spawned as a process of its own. */
  startAgent?: AgentStarter;
  /** How agents share the CPU with the editor, read when one starts; without it they run as any program. */
  agentPriority?(): AgentPriority;
  /** Deadlines of a start's stages where they differ from `STARTUP_TIMEOUTS_MS`. */
  startupTimeoutsMs?: Partial<Record<StartupStage, number>>;
}
