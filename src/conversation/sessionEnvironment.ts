import type { ClientPorts } from '../acp/clientPorts';
import type { FrameStore } from '../acp/frames';
import type { McpServerChoice, McpServerOffer } from '../agents/mcpServers';
import type { Logger } from '../util/logger';
import type { PermissionPolicy } from '../permissions/permissionPolicy';
import type { ApiKeyStore, SignInRunner } from './signIn';
import type { AgentHostPool } from '../acp/agentHost';
import type { AgentStarter } from '../acp/agentChannel';
import type { StartupStage } from './startup';
import type { AgentPriority } from '../util/processPriority';
import type { WorkspaceScope } from '../workspace/workspaceScope';
import type { AgentIdentity } from '../permissions/projectPrograms';
import type { ProgramConsentVerdict } from '../permissions/projectProgramConsent';
import type { UsageEntry } from '../usage/usageEntry';
import type { BudgetSource } from './budgetGuard';


export interface SessionEnvironment {
  /**
   * Where a conversation works (by its key), built by the composition root: its folders, review,
   * checkpoints and the editor services its sessions get. null: no folder is open.
   */
  workspace(conversationKey: string): WorkspaceScope | null;
  /**
   * Answers to `fs/*` and `terminal/*` given on the wire as they are, instead of by the workspace's
   * services: a replay answers as the recording did. Absent: the workspace serves them.
   */
  wirePorts?: Pick<ClientPorts, 'fs' | 'terminals'>;
  /** Restricted Mode: agents run programs and change files, so none is started. */
  trusted: boolean;
  frames: FrameStore;
  logger: Logger;
  /**
   * The MCP servers to pass in session/new, load and resume, awaited before each: the user's own,
   * and those of project files the user said yes to (asking first where needed). A plain list is
   * servers that need no consent.
   */
  mcpServers?(): Promise<McpServerOffer> | readonly McpServerChoice[];
  /**
   * Asked before an agent is started in a folder: whether it may start there, given the programs
   * the folder's own files would make it run (asking the user about those without a yes), and
   * with which of its switches to ignore them. Absent: no agent starts in a folder whose files
   * define programs.
   */
  projectPrograms?(agent: AgentIdentity & { label: string }, cwd: string): Promise<ProgramConsentVerdict>;
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
  /** Where each turn's usage is kept (the usage ledger); without it none is recorded. */
  usageLedger?: { record(entry: UsageEntry): void };
  /** The user's spending limits and what was spent; without it no turn is stopped for cost. */
  budget?: BudgetSource;
}
