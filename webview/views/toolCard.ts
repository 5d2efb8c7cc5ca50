import { diffLines } from 'diff';
import type { PermissionOptionView, ToolCallView, ToolContentView, ToolKindView, ToolStatusView } from '../../src/contract/viewModel';
import { button, el, icon, isEditorPath } from '../dom';
import { assertNever } from '../../src/util/assertNever';
import type { ReviewStore } from '../reviewStore';
import type { PostToHost } from '../vscodeApi';
import { renderPendingFile, reviewRequests } from './hunkView';
import type { TerminalPanes } from './terminalView';

/** What a card needs beyond its tool call: the host, the pending changes, the terminal panes. */
export interface CardContext {
  post: PostToHost;
  review: ReviewStore;
  terminals: TerminalPanes;
}

const kindIcons: Record<ToolKindView, string> = {
  read: 'file', edit: 'edit', delete: 'trash', move: 'arrow-swap', search: 'search', execute: 'terminal',
  think: 'lightbulb', fetch: 'globe', switch_mode: 'symbol-enum', other: 'tools',
};

const statusLabels: Record<ToolStatusView, { label: string; icon: string }> = {
  pending: { label: 'Pending', icon: 'circle-large-outline' },
  in_progress: { label: 'Running', icon: 'loading' },
  completed: { label: 'Done', icon: 'pass' },
  failed: { label: 'Failed', icon: 'error' },
  cancelled: { label: 'Cancelled', icon: 'circle-slash' },
};

const safeImageTypes = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

export function renderToolCard(tool: ToolCallView, context: CardContext): HTMLElement {
  const status = tool.permission ? { label: 'Waiting for you', icon: 'shield' } : statusLabels[tool.status];
  const statusClass = tool.permission ? 'awaiting' : tool.status;
  const header = el('div', { class: 'tool-header' },
    icon(kindIcons[tool.toolKind], 'tool-kind'),
    el('span', { class: 'tool-title', title: tool.title }, tool.title),
    el('span', { class: `tool-status status-${statusClass}`, role: 'status' },
      icon(status.icon, tool.status === 'in_progress' && !tool.permission ? 'codicon-modifier-spin' : ''), status.label),
  );
  const card = el('article', { class: `tool-card kind-${tool.toolKind} status-${statusClass}`, 'data-tool-call-id': tool.toolCallId, 'aria-label': `${tool.toolKind} tool call: ${tool.title}` }, header);
  if (tool.locations.length > 0) {
    card.append(el('div', { class: 'tool-locations' }, ...tool.locations.map((location) => {
      const label = location.line ? `${location.path}:${location.line}` : location.path;
      const link = el('a', { href: '#', class: 'location-link', title: `Open ${label}` }, label);
      link.addEventListener('click', (event) => {
        event.preventDefault();
        if (isEditorPath(location.path)) context.post({ type: 'openLink', href: location.line ? `${location.path}#L${location.line}` : location.path });
      });
      return link;
    })));
  }
  tool.content.forEach((content, index) => card.append(tool.toolKind === 'execute' && content.type === 'text'
    ? context.terminals.staticOutput(`${tool.toolCallId}#${index}`, tool.title, content.text)
    : renderContent(content, context)));
  // A display terminal the agent reports only in `_meta` still shows in its card.
  const metaTerminal = tool.content.some((content) => content.type === 'terminal') ? null : context.terminals.elementForToolCall(tool.toolCallId);
  if (metaTerminal) card.append(metaTerminal);
  if (tool.permission) card.append(renderPermission(tool.permission.requestId, tool.permission.options, permissionQuestion(tool), context.post));
  if (tool.permissionNote) card.append(el('div', { class: 'permission-note' }, icon('shield'), ` ${tool.permissionNote}`));
  if (tool.rawInput) card.append(disclosure('Raw input', tool.rawInput));
  if (tool.rawOutput) card.append(disclosure('Raw output', tool.rawOutput));
  return card;
}

function renderContent(content: ToolContentView, context: CardContext): HTMLElement {
  switch (content.type) {
    case 'text':
      return el('pre', { class: 'tool-text' }, content.text);
    case 'diff': {
      // While the file has pending changes, the card offers them hunk by hunk.
      const pending = context.review.file(content.path);
      return pending && pending.hunks.length > 0 ? renderPendingFile(pending, reviewRequests(context.post)) : renderDiff(content.path, content.oldText, content.newText);
    }
    case 'terminal':
      return context.terminals.element(content.terminalId);
    case 'image':
      if (!safeImageTypes.has(content.mimeType)) return el('div', { class: 'tool-text' }, `[${content.mimeType} image not shown]`);
      return el('img', { class: 'tool-image', alt: 'Image from the agent', src: `data:${content.mimeType};base64,${content.data.replace(/[^A-Za-z0-9+/=]/g, '')}` });
    case 'resource':
      return el('div', { class: 'tool-resource' }, el('div', { class: 'resource-uri' }, content.uri), content.text === null ? null : el('pre', { class: 'tool-text' }, content.text));
    default:
      return assertNever(content, 'tool content');
  }
}

function renderDiff(path: string, oldText: string | null, newText: string): HTMLElement {
  const body = el('pre', { class: 'diff-body' });
  for (const part of diffLines(oldText ?? '', newText)) {
    const lines = part.value.replace(/\n$/, '').split('\n');
    const kind = part.added ? 'added' : part.removed ? 'removed' : 'context';
    const shown = kind === 'context' && lines.length > 6 ? [...lines.slice(0, 3), '…', ...lines.slice(-3)] : lines;
    for (const line of shown) {
      body.append(el('div', { class: `diff-line diff-${kind}` }, `${kind === 'added' ? '+' : kind === 'removed' ? '-' : ' '} ${line}`));
    }
  }
  return el('div', { class: 'tool-diff' }, el('div', { class: 'diff-path' }, icon('diff'), ` ${path}${oldText === null ? ' (new file)' : ''}`), body);
}

/** The verb of a permission question about one file; kinds without one get the general question. */
const fileVerbs: Record<ToolKindView, string | null> = {
  read: 'read', edit: 'change', delete: 'delete', move: null, search: null, execute: null, think: null, fetch: null, switch_mode: null, other: null,
};

/** What the user is asked to allow, in words: the command, the file, or the tool. */
function permissionQuestion(tool: ToolCallView): string {
  if (tool.toolKind === 'execute') return 'The agent wants to run the command above.';
  const verb = fileVerbs[tool.toolKind];
  if (!verb) return 'The agent asks for permission.';
  const path = tool.content.find((content) => content.type === 'diff')?.path ?? tool.locations[0]?.path;
  return path ? `The agent wants to ${verb} ${path}.` : `The agent wants to ${verb} a file.`;
}

function renderPermission(requestId: string, options: PermissionOptionView[], question: string, post: PostToHost): HTMLElement {
  const row = el('div', { class: 'permission-options', role: 'group', 'aria-label': 'The agent asks for permission' });
  for (const option of options) {
    const allow = option.kind.startsWith('allow');
    row.append(button(option.name, {
      icon: allow ? 'check' : 'close',
      secondary: !(option.kind === 'allow_once'),
      title: `${option.name} (${option.kind.replace('_', ' ')})`,
      onClick: () => post({ type: 'answerPermission', requestId, optionId: option.optionId }),
    }));
  }
  return el('div', { class: 'permission' }, el('div', { class: 'permission-prompt' }, icon('shield'), ` ${question}`), row);
}

function disclosure(summary: string, text: string): HTMLElement {
  return el('details', { class: 'raw' }, el('summary', {}, summary), el('pre', {}, text.length > 100_000 ? `${text.slice(0, 100_000)}\n… (${text.length - 100_000} more characters)` : text));
}
