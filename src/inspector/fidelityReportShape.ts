import type { PermissionGrantView, ProjectRulesView } from '../permissions/grants';
import type { AgentIdentity } from './agentIdentity';
import type { FrameMarkKind } from './frameIndex';
import type { Outcomes } from './trafficFacts';

// The fidelity report's shape, apart from how it is worked out, so the sentence that sums it up
// (reportSummary) and the report itself both build on it without importing each other.

/** An agent capability, whether the agent declared it, and what happened when Tandem used it. */
export interface CapabilityUse extends Outcomes {
  capability: string;
  method: string;
  declared: boolean;
}

/** A client method, whether Tandem advertised it, and how often the agent called it. */
export interface ClientMethodUse extends Outcomes {
  method: string;
  advertised: boolean;
}

/** How a file change reached the user. */
export type FileArrival = 'editor' | 'disk' | 'diffOnly' | 'unannounced';

export interface FileChangeFact {
  path: string;
  arrival: FileArrival;
  /** The change removed the file (only the review ledger knows; false for what only the traffic shows). */
  deleted: boolean;
  toolCallIds: string[];
}

export interface ToolAccess {
  toolCallId: string;
  title: string;
  kind: string;
  paths: string[];
  asked: boolean;
}

export interface Counted {
  name: string;
  count: number;
}

export interface FidelityReport {
  agentLabel: string;
  agent: AgentIdentity | null;
  protocolVersion: number | null;
  capabilities: CapabilityUse[];
  promptContent: { type: string; declared: boolean; sent: number }[];
  mcpTransports: { transport: string; declared: boolean }[];
  authMethods: { id: string; name: string }[];
  clientMethods: ClientMethodUse[];
  files: FileChangeFact[];
  permissions: { kind: string; toolCalls: number; asked: number }[];
  /** Tool calls a loaded session replayed from its history: counted nowhere else in the report. */
  replayedToolCalls: number;
  silentReads: ToolAccess[];
  outsideWorkspace: ToolAccess[];
  projectRules: ProjectRulesView[];
  tandemGrants: PermissionGrantView[];
  updateKinds: Counted[];
  metaKeys: Counted[];
  marked: { index: number; kind: FrameMarkKind; reason: string }[];
  /** Requests the agent sent that Tandem answered "method not found". */
  unserved: Counted[];
  summary: string;
}
