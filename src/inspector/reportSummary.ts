import type { FidelityReport } from './fidelityReportShape';

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

function times(count: number): string {
  return count === 1 ? 'once' : count === 2 ? 'twice' : `${count} times`;
}

/**
 * The report in one sentence, for the panel: what the agent did with files behind the editor's
 * back and how often it asked, e.g. "Claude Code wrote 3 files to disk itself, read 7 files
 * without asking, asked 2 times".
 */
export function reportSummary(report: Omit<FidelityReport, 'summary'>, permissionRequests: number): string {
  const count = (arrival: string) => report.files.filter((file) => file.arrival === arrival && !file.deleted).length;
  const deleted = report.files.filter((file) => file.deleted).length;
  const silentlyRead = new Set(report.silentReads.flatMap((read) => read.paths)).size;
  const outsideUnasked = report.outsideWorkspace.filter((tool) => !tool.asked).length;
  const unserved = report.unserved.reduce((sum, method) => sum + method.count, 0);
  const parts = [
    count('disk') > 0 ? `wrote ${plural(count('disk'), 'file')} to disk itself` : null,
    deleted > 0 ? `deleted ${plural(deleted, 'file')} on disk itself` : null,
    count('editor') > 0 ? `changed ${plural(count('editor'), 'file')} through the editor` : null,
    count('diffOnly') > 0 ? `showed diffs for ${plural(count('diffOnly'), 'file')} that Tandem never saw change` : null,
    count('unannounced') > 0 ? `changed ${plural(count('unannounced'), 'file')} no tool call announced` : null,
    silentlyRead > 0 ? `read ${plural(silentlyRead, 'file')} without asking` : null,
    outsideUnasked > 0 ? `reached outside the workspace ${times(outsideUnasked)} without asking` : null,
    permissionRequests > 0 ? `asked ${times(permissionRequests)}` : 'never asked',
    unserved > 0 ? `called ${plural(unserved, 'method')} Tandem does not serve` : null,
    report.marked.length > 0 ? `sent ${plural(report.marked.length, 'frame')} Tandem could not use as sent` : null,
    report.replayedToolCalls > 0 ? `replayed ${plural(report.replayedToolCalls, 'tool call')} of an earlier session (not counted above)` : null,
  ].filter((part): part is string => part !== null);
  return `${report.agentLabel} ${parts.join(', ')}.`;
}
