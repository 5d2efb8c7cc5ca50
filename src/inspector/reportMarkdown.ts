import { changeWords } from '../review/changeWords';
import { markdownCode as code, markdownTable as table, markdownText as text } from '../util/markdownText';
import { pathLabel, titleWithRelativePaths } from '../util/pathLabel';
import type { ClientMethodUse, CapabilityUse, FidelityReport, FileChangeFact } from './fidelityReportShape';

function outcome(use: { calls: number; succeeded: number; failed: number; lastError: string | null }): string {
  if (use.calls === 0) return 'not tried';
  const failed = use.failed > 0 ? `, ${use.failed} failed${use.lastError ? ` (${text(use.lastError)})` : ''}` : '';
  return `${use.calls} tried, ${use.succeeded} succeeded${failed}`;
}

/** In the cards' words where a card shows the change; what only the traffic shows has words of its own. */
function arrivalWords(file: FileChangeFact): string {
  switch (file.arrival) {
    case 'editor':
    case 'disk':
      return changeWords(file.arrival, file.deleted);
    case 'diffOnly':
      return 'announced only as diff content';
    case 'unannounced':
      return 'changed on disk, no tool call announced it';
  }
}

const yes = (flag: boolean) => (flag ? 'yes' : 'no');

function capabilityRows(uses: readonly CapabilityUse[]): string[][] {
  return uses.map((use) => [code(use.method), yes(use.declared), outcome(use)]);
}

function clientRows(uses: readonly ClientMethodUse[]): string[][] {
  return uses.filter((use) => use.advertised || use.calls > 0).map((use) => [code(use.method), yes(use.advertised), String(use.calls), use.failed > 0 ? `${use.failed}${use.notFound > 0 ? ` (${use.notFound} not served)` : ''}` : '0']);
}

/** Paths and titles as the cards show them: relative inside the workspace folder, whole outside it. */
interface Names {
  path(path: string): string;
  title(title: string): string;
}

function names(workspaceRoot: string | null): Names {
  return { path: (path) => code(pathLabel(path, workspaceRoot).label), title: (title) => text(titleWithRelativePaths(title, workspaceRoot)) };
}

function accessRows(accesses: FidelityReport['silentReads'], name: Names): string[][] {
  return accesses.map((tool) => [tool.title ? name.title(tool.title) : text(tool.toolCallId), text(tool.kind), tool.paths.map(name.path).join(', '), yes(tool.asked)]);
}

/** The report as a Markdown document for the editor's preview, naming files relative to `workspaceRoot` as the cards do. */
export function reportMarkdown(report: FidelityReport, workspaceRoot: string | null): string {
  const name = names(workspaceRoot);
  const agent = report.agent ? `${text(report.agent.title ?? report.agent.name)} ${report.agent.version ? text(report.agent.version) : ''}`.trim() : 'unknown (no initialize answer in the traffic)';
  const lines = [
    `# Fidelity report: ${text(report.agentLabel)}`,
    '',
    `**${text(report.summary)}**`,
    '',
    `Agent: ${agent}. Protocol version: ${report.protocolVersion ?? 'unknown'}. Built from the traffic, not from what the agent declares.`,
    '',
    '## Declared and observed agent capabilities',
    ...table(['Method', 'Declared', 'When Tandem used it'], capabilityRows(report.capabilities)),
    'Prompt content: ' + report.promptContent.map((row) => `${row.type} ${row.declared ? 'declared' : 'not declared'}, ${row.sent} sent`).join('; ') + '.',
    '',
    'MCP transports: ' + report.mcpTransports.map((row) => `${row.transport} ${row.declared ? 'yes' : 'no'}`).join(', ') + '.',
    '',
    `Sign-in methods: ${report.authMethods.length > 0 ? report.authMethods.map((method) => text(method.name)).join(', ') : 'none'}.`,
    '',
    '## Client capabilities Tandem advertised, and what the agent called',
    ...table(['Method', 'Advertised', 'Calls', 'Failed'], clientRows(report.clientMethods)),
    '## How each file change arrived',
    ...table(['File', 'How', 'Tool calls'], report.files.map((file) => [name.path(file.path), arrivalWords(file), file.toolCallIds.map(code).join(', ')])),
    '## Permission coverage',
    ...table(['Tool kind', 'Tool calls', 'Asked'], report.permissions.map((row) => [text(row.kind), String(row.toolCalls), `${row.asked} of ${row.toolCalls}`])),
    ...(report.replayedToolCalls > 0 ? [`${report.replayedToolCalls === 1 ? 'One tool call' : `${report.replayedToolCalls} tool calls`} that a loaded session replayed from its history (\`session/load\`) ${report.replayedToolCalls === 1 ? 'is' : 'are'} not counted in this report: made, and asked about or not, in an earlier session.`, ''] : []),
    '### Reads inside the workspace that never asked',
    ...table(['Tool call', 'Kind', 'Paths', 'Asked'], accessRows(report.silentReads, name)),
    '### Accesses outside the workspace',
    ...table(['Tool call', 'Kind', 'Paths', 'Asked'], accessRows(report.outsideWorkspace, name)),
    '## Standing grants',
    ...table(['Kept by', 'File', 'Allows', 'Denies'], [
      ...report.projectRules.map((rules) => ['the agent, inside the project', code(rules.label), rules.allow.map(code).join(', '), rules.deny.map(code).join(', ')]),
      ...report.tandemGrants.map((grant) => ['Tandem', '', text(grant.description), '']),
    ]),
    '## What arrived',
    '### session/update kinds',
    ...table(['Kind', 'Count'], report.updateKinds.map((row) => [code(row.name), String(row.count)])),
    '### `_meta` keys',
    ...table(['Key', 'Count'], report.metaKeys.map((row) => [code(row.name), String(row.count)])),
    '### Frames Tandem could not use as sent',
    ...table(['Frame', 'Mark', 'Why'], report.marked.map((row) => [`#${row.index + 1}`, row.kind, text(row.reason)])),
    '### Requests the agent sent that Tandem does not serve',
    ...table(['Method', 'Count'], report.unserved.map((row) => [code(row.name), String(row.count)])),
  ];
  return `${lines.join('\n')}\n`;
}
