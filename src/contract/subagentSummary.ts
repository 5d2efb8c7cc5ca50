import { type ThreadEntry } from './viewModel';
import { fileChangingKinds } from './toolKinds';

/** What a subagent did inside one tool call's card: its own tool calls and messages, and the files it changed. */
export interface SubagentSummary {
  toolCalls: number;
  messages: number;
  filesChanged: number;
}

/** The parent tool call an entry ran inside (a subagent's work), or null for the main conversation. */
export function parentOf(entry: ThreadEntry): string | null {
  if (entry.kind === 'toolCall') return entry.tool.parentToolCallId ?? null;
  if (entry.kind === 'agentMessage' || entry.kind === 'thought') return entry.parentToolCallId ?? null;
  return null;
}

export function subagentSummary(entries: readonly ThreadEntry[], parentToolCallId: string): SubagentSummary {
  const files = new Set<string>();
  let toolCalls = 0;
  let messages = 0;
  for (const entry of entries) {
    if (parentOf(entry) !== parentToolCallId) continue;
    if (entry.kind !== 'toolCall') {
      messages++;
      continue;
    }
    toolCalls++;
    if (!fileChangingKinds.has(entry.tool.toolKind) || entry.tool.status === 'failed') continue;
    for (const content of entry.tool.content) if (content.type === 'diff') files.add(content.path);
    if (!entry.tool.content.some((content) => content.type === 'diff')) for (const location of entry.tool.locations) files.add(location.path);
  }
  return { toolCalls, messages, filesChanged: files.size };
}

export function subagentSummaryText(summary: SubagentSummary): string {
  const plural = (count: number, one: string) => `${count} ${one}${count === 1 ? '' : 's'}`;
  return `Subagent: ${[plural(summary.toolCalls, 'tool call'), plural(summary.messages, 'message'), `${plural(summary.filesChanged, 'file')} changed`].join(', ')}`;
}
