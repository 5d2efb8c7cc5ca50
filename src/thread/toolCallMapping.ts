import type * as acp from '@agentclientprotocol/sdk';
import type { LocationView, PermissionOptionView, PlanItemView, ToolCallView, ToolContentView, ToolStatusView } from './entries';
import { isToolKind, type ToolKindView } from '../acp/toolKinds';
import { parentToolCallIdOf } from './agentMeta';

export function toToolKind(kind: string | null | undefined): ToolKindView {
  return isToolKind(kind) ? kind : 'other';
}

export function toToolStatus(status: string | null | undefined): ToolStatusView {
  switch (status) {
    case 'in_progress':
    case 'completed':
    case 'failed':
      return status;
    default:
      return 'pending';
  }
}

/** Renders a content block as text the thread can show; non-text blocks are named, not dropped. */
export function contentBlockText(block: acp.ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'resource_link':
      return `[${block.name || block.uri}](${block.uri})`;
    case 'resource':
      return 'text' in block.resource ? block.resource.text : `[${block.resource.uri}]`;
    case 'image':
      return '[image]';
    case 'audio':
      return '[audio]';
  }
}

export function toToolContent(content: acp.ToolCallContent): ToolContentView {
  switch (content.type) {
    case 'diff':
      return { type: 'diff', path: content.path, oldText: content.oldText ?? null, newText: content.newText };
    case 'terminal':
      return { type: 'terminal', terminalId: content.terminalId };
    case 'content': {
      const block = content.content;
      if (block.type === 'image') return { type: 'image', mimeType: block.mimeType, data: block.data };
      if (block.type === 'resource') {
        return { type: 'resource', uri: block.resource.uri, text: 'text' in block.resource ? block.resource.text : null };
      }
      return { type: 'text', text: contentBlockText(block) };
    }
  }
}

export function toLocation(location: acp.ToolCallLocation): LocationView {
  return { path: location.path, line: location.line ?? null };
}

export function stringifyRaw(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value, null, 2);
  } catch {
    return String(value);
  }
}

export function newToolCallView(toolCallId: string): ToolCallView {
  return {
    toolCallId,
    title: 'Tool call',
    toolKind: 'other',
    status: 'pending',
    content: [],
    locations: [],
    rawInput: null,
    rawOutput: null,
    permission: null,
  };
}

/** Applies a `tool_call` or `tool_call_update`: fields present replace, absent ones stay. */
export function mergeToolCall(current: ToolCallView, update: acp.ToolCallUpdate | acp.ToolCall): ToolCallView {
  const next: ToolCallView = { ...current };
  if (update.title) next.title = update.title;
  if (update.kind) next.toolKind = toToolKind(update.kind);
  if (update.status) next.status = toToolStatus(update.status);
  if (update.content) next.content = update.content.map(toToolContent);
  if (update.locations) next.locations = update.locations.map(toLocation);
  if (update.rawInput !== undefined) next.rawInput = stringifyRaw(update.rawInput);
  if (update.rawOutput !== undefined) next.rawOutput = stringifyRaw(update.rawOutput);
  // A subagent's call keeps its parent even when later updates leave the stamp out.
  const parent = parentToolCallIdOf(update._meta);
  if (parent && parent !== current.toolCallId) next.parentToolCallId = parent;
  return next;
}

export function toPermissionOptions(options: readonly acp.PermissionOption[]): PermissionOptionView[] {
  return options.map((option) => ({ optionId: option.optionId, name: option.name, kind: option.kind }));
}

export function toPlanItems(entries: readonly acp.PlanEntry[]): PlanItemView[] {
  return entries.map((entry) => ({ content: entry.content, status: entry.status, priority: entry.priority }));
}
