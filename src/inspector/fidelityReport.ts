import { isAbsolute, relative, resolve } from 'node:path';
import type { Frame } from '../wire/frame';
import { redactJson } from '../redaction/redact';
import type { PermissionGrantView, ProjectRulesView } from '../permissions/grants';
import { toolKinds } from '../acp/toolKinds';
import type { ChangeOrigin } from '../review/types';
import { isRecord } from '../util/untrustedJson';
import { agentIdentity } from './agentIdentity';
import { buildFrameIndex, type FrameMark } from './frameIndex';
import { emptyOutcomes, TrafficFacts, type ToolFacts } from './trafficFacts';
import { reportSummary } from './reportSummary';
import type { CapabilityUse, ClientMethodUse, Counted, FidelityReport, FileArrival, FileChangeFact, ToolAccess } from './fidelityReportShape';

/** One file the review ledger holds for the conversation. */
export interface LedgerFile {
  path: string;
  origin: ChangeOrigin;
  /** The change removed the file. */
  deleted: boolean;
  toolCallIds: readonly string[];
}

export interface ReportInputs {
  /** The conversation's frames. */
  frames: readonly Frame[];
  agentLabel: string;
  workspaceRoots: readonly string[];
  files: readonly LedgerFile[];
  /** "Always allow" rules the agent keeps inside the project. */
  projectRules: readonly ProjectRulesView[];
  tandemGrants: readonly PermissionGrantView[];
  /** What `deliveryMarks` found over the same frames: updates the SDK dropped or changed on the way. */
  deliveryMarks?: ReadonlyMap<number, FrameMark>;
}

/** Agent capabilities as `initialize` declares them, by the method each one allows. */
const AGENT_CAPABILITIES: { capability: string; method: string; declared(capabilities: Record<string, unknown>): boolean }[] = [
  { capability: 'loadSession', method: 'session/load', declared: (c) => c.loadSession === true },
  ...['resume', 'list', 'fork', 'close', 'delete'].map((name) => ({
    capability: `sessionCapabilities.${name}`,
    method: `session/${name}`,
    declared: (c: Record<string, unknown>) => isRecord(c.sessionCapabilities) && isRecord(c.sessionCapabilities[name]),
  })),
  { capability: 'auth.logout', method: 'logout', declared: (c) => isRecord(c.auth) && isRecord(c.auth.logout) },
];

/** Client methods as the advertised client capabilities allow them. */
const CLIENT_METHODS: { method: string; advertised(capabilities: Record<string, unknown>): boolean }[] = [
  { method: 'fs/read_text_file', advertised: (c) => isRecord(c.fs) && c.fs.readTextFile === true },
  { method: 'fs/write_text_file', advertised: (c) => isRecord(c.fs) && c.fs.writeTextFile === true },
  ...['create', 'output', 'wait_for_exit', 'kill', 'release'].map((name) => ({ method: `terminal/${name}`, advertised: (c: Record<string, unknown>) => c.terminal === true })),
  { method: 'elicitation/create', advertised: (c) => isRecord(c.elicitation) },
  { method: 'session/request_permission', advertised: () => true },
];

const PROMPT_TYPES: { type: string; declared(prompt: Record<string, unknown>): boolean }[] = [
  { type: 'text', declared: () => true },
  { type: 'resource_link', declared: () => true },
  { type: 'image', declared: (p) => p.image === true },
  { type: 'audio', declared: (p) => p.audio === true },
  { type: 'resource', declared: (p) => p.embeddedContext === true },
];

function record(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}

function counted(counts: ReadonlyMap<string, number>): Counted[] {
  return [...counts].map(([name, count]) => ({ name, count })).sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
}

function capabilityUses(facts: TrafficFacts, declared: Record<string, unknown>): CapabilityUse[] {
  return AGENT_CAPABILITIES.map(({ capability, method, declared: isDeclared }) => ({
    capability, method, declared: isDeclared(declared), ...(facts.sent.get(method) ?? emptyOutcomes()),
  }));
}

function clientMethodUses(facts: TrafficFacts, advertised: Record<string, unknown>): ClientMethodUse[] {
  const known = CLIENT_METHODS.map(({ method, advertised: isAdvertised }) => ({ method, advertised: isAdvertised(advertised), ...(facts.received.get(method) ?? emptyOutcomes()) }));
  const names = new Set(known.map((use) => use.method));
  const others = [...facts.received].filter(([method]) => !names.has(method)).map(([method, outcomes]) => ({ method, advertised: false, ...outcomes }));
  return [...known, ...others];
}

/** Inside one of the roots (a relative path is taken from the first, the session's folder). */
function insideWorkspace(path: string, roots: readonly string[]): boolean {
  const absolute = isAbsolute(path) || roots.length === 0 ? path : resolve(roots[0] as string, path);
  return roots.some((root) => {
    const rest = relative(root, absolute);
    return rest === '' || (!rest.startsWith('..') && !isAbsolute(rest));
  });
}

function access(tool: ToolFacts): ToolAccess {
  return { toolCallId: tool.toolCallId, title: tool.title, kind: tool.kind, paths: [...tool.paths], asked: tool.asked };
}

function fileFacts(facts: TrafficFacts, tools: readonly ToolFacts[], ledger: readonly LedgerFile[]): FileChangeFact[] {
  const files = new Map<string, FileChangeFact>();
  for (const file of ledger) {
    const arrival: FileArrival = file.origin === 'editor' ? 'editor' : file.toolCallIds.length > 0 ? 'disk' : 'unannounced';
    files.set(file.path, { path: file.path, arrival, deleted: file.deleted, toolCallIds: [...file.toolCallIds] });
  }
  for (const path of facts.editorWrites.keys()) if (!files.has(path)) files.set(path, { path, arrival: 'editor', deleted: false, toolCallIds: [] });
  for (const tool of tools) {
    for (const path of tool.diffPaths) {
      const known = files.get(path);
      if (known) {
        if (!known.toolCallIds.includes(tool.toolCallId)) known.toolCallIds.push(tool.toolCallId);
      } else files.set(path, { path, arrival: 'diffOnly', deleted: false, toolCallIds: [tool.toolCallId] });
    }
  }
  return [...files.values()];
}

function permissionCoverage(tools: readonly ToolFacts[]): FidelityReport['permissions'] {
  const order = (kind: string) => {
    const at = (toolKinds as readonly string[]).indexOf(kind);
    return at < 0 ? toolKinds.length : at;
  };
  const byKind = new Map<string, { kind: string; toolCalls: number; asked: number }>();
  for (const tool of tools) {
    const row = byKind.get(tool.kind) ?? { kind: tool.kind, toolCalls: 0, asked: 0 };
    row.toolCalls++;
    if (tool.asked) row.asked++;
    byKind.set(tool.kind, row);
  }
  return [...byKind.values()].sort((a, b) => order(a.kind) - order(b.kind));
}

/** Every marked frame; what the delivery check found replaces the index's own guess for a frame. */
function marked(facts: TrafficFacts, delivery: ReadonlyMap<number, FrameMark> = new Map()): FidelityReport['marked'] {
  const byFrame = new Map(facts.marks.map(({ index, mark }) => [index, mark]));
  for (const [index, mark] of delivery) byFrame.set(index, mark);
  return [...byFrame].sort(([a], [b]) => a - b).map(([index, mark]) => ({ index, kind: mark.kind, reason: mark.reason }));
}

/** The fidelity report: what the agent declared, what it did, and what the user was asked, from the traffic itself; redacted. */
export function fidelityReport(inputs: ReportInputs): FidelityReport {
  const facts = new TrafficFacts();
  buildFrameIndex(inputs.frames, facts.observe);
  const init = facts.initializeResult ?? {};
  const declared = record(init.agentCapabilities);
  // What a loaded session replays happened in an earlier conversation, where it was asked or not.
  const tools = [...facts.tools.values()].filter((tool) => !tool.replayed);
  const inside = (path: string) => insideWorkspace(path, inputs.workspaceRoots);
  const report: Omit<FidelityReport, 'summary'> = {
    agentLabel: inputs.agentLabel,
    agent: agentIdentity(init.agentInfo),
    protocolVersion: typeof init.protocolVersion === 'number' ? init.protocolVersion : null,
    capabilities: capabilityUses(facts, declared),
    promptContent: PROMPT_TYPES.map(({ type, declared: isDeclared }) => ({ type, declared: isDeclared(record(declared.promptCapabilities)), sent: facts.promptContent.get(type) ?? 0 })),
    mcpTransports: [
      { transport: 'stdio', declared: true },
      ...['http', 'sse'].map((transport) => ({ transport, declared: record(declared.mcpCapabilities)[transport] === true })),
    ],
    authMethods: (Array.isArray(init.authMethods) ? init.authMethods : []).filter(isRecord).map((method) => ({ id: String(method.id ?? ''), name: String(method.name ?? method.id ?? '') })),
    clientMethods: clientMethodUses(facts, record(record(facts.initializeRequest).clientCapabilities)),
    files: fileFacts(facts, tools, inputs.files),
    permissions: permissionCoverage(tools),
    replayedToolCalls: facts.tools.size - tools.length,
    silentReads: tools.filter((tool) => tool.kind === 'read' && !tool.asked && tool.paths.size > 0 && [...tool.paths].every(inside)).map(access),
    outsideWorkspace: tools.filter((tool) => [...tool.paths].some((path) => !inside(path))).map(access),
    projectRules: [...inputs.projectRules],
    tandemGrants: [...inputs.tandemGrants],
    updateKinds: counted(facts.updateKinds),
    metaKeys: counted(facts.metaKeys),
    marked: marked(facts, inputs.deliveryMarks),
    unserved: [...facts.received].filter(([, outcomes]) => outcomes.notFound > 0).map(([name, outcomes]) => ({ name, count: outcomes.notFound })),
  };
  // Titles, paths and error messages come from the agent and may hold credentials: the report is exported.
  return redactJson({ ...report, summary: reportSummary(report, facts.received.get('session/request_permission')?.calls ?? 0) });
}
