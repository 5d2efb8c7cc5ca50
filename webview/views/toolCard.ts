import { agentDiffView, permissionChangeView, type AgentDiffView, type DiffContent, type PermissionChangeView } from '../../src/contract/agentDiff';
import { fileProgress } from '../../src/contract/reviewProgress';
import type { PermissionOptionView, ToolCallView, ToolContentView, ToolStatusView } from '../../src/contract/viewModel';
import type { ToolKindView } from '../../src/contract/toolKinds';
import { button, el, icon, isEditorPath, spinner } from '../dom';
import { assertNever } from '../../src/util/assertNever';
import type { ReviewStore } from '../reviewStore';
import type { PostToHost } from '../vscodeApi';
import { languageOfPath, renderDiffLines, type NumberedLine } from './diffLines';
import { renderPendingFile, type HunkContext } from './hunkView';
import type { TerminalPanes } from './terminalView';
import { showFramesLink } from './toolFrameLink';
import type { WorkspacePaths } from '../workspacePaths';
import type { PathLabel } from '../../src/contract/pathLabel';
import { commandOfRawInput, visibleLines, visibleText } from '../../src/contract/consentText';

/** What a card needs beyond its tool call: the host, the pending changes, the terminal panes. */
export interface CardContext {
  post: PostToHost;
  review: ReviewStore;
  terminals: TerminalPanes;
  paths: WorkspacePaths;
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
  // What the agent names (title, files, options) is its own text: shown with nothing hidden or reordered.
  const title = visibleText(context.paths.title(tool.title));
  const header = el('div', { class: 'tool-header' },
    icon(kindIcons[tool.toolKind], 'tool-kind'),
    el('span', { class: 'tool-title', title: visibleText(tool.title) }, title),
    el('span', { class: `tool-status status-${statusClass}`, role: 'status' },
      (tool.status === 'in_progress' && !tool.permission ? spinner : icon)(status.icon), status.label),
  );
  const card = el('article', { class: `tool-card kind-${tool.toolKind} status-${statusClass}`, 'data-tool-call-id': tool.toolCallId, 'aria-label': `${tool.toolKind} tool call: ${title}` }, header);
  if (tool.locations.length > 0) {
    card.append(el('div', { class: 'tool-locations' }, ...tool.locations.map((location) => {
      const name = context.paths.label(location.path);
      const line = location.line ? `:${location.line}` : '';
      const link = el('a', { href: '#', class: 'location-link', title: `Open ${visibleText(name.full)}${line}` }, fileName(name.label), line);
      link.addEventListener('click', (event) => {
        event.preventDefault();
        if (isEditorPath(location.path)) context.post({ type: 'openLink', href: location.line ? `${location.path}#L${location.line}` : location.path });
      });
      return el('span', { class: 'tool-location' }, link, outsideMark(name));
    })));
  }
  // While the agent asks, its diffs are shown in the question, as the change to allow.
  const change = tool.permission ? permissionChangeView(tool, diffViewOf) : null;
  // Some agents (codex-acp) send one diff per hunk of the same file: its pending hunks are drawn once.
  const pendingDrawn = new Set<string>();
  tool.content.forEach((content, index) => {
    if (change && content.type === 'diff') return;
    if (content.type === 'diff' && context.review.file(content.path)) {
      if (pendingDrawn.has(content.path)) return;
      pendingDrawn.add(content.path);
    }
    card.append(tool.toolKind === 'execute' && content.type === 'text'
      ? context.terminals.staticOutput(`${tool.toolCallId}#${index}`, tool.title, content.text)
      : renderContent(content, context, tool.toolCallId));
  });
  // A display terminal the agent reports only in `_meta` still shows in its card.
  const metaTerminal = tool.content.some((content) => content.type === 'terminal') ? null : context.terminals.elementForToolCall(tool.toolCallId);
  if (metaTerminal) card.append(metaTerminal);
  if (tool.permission) card.append(renderPermission(tool.permission.requestId, tool.permission.options, permissionQuestion(tool, context.paths), [...renderCommand(tool), ...renderChange(change, context.paths)], context.post));
  if (tool.permissionNote) card.append(el('div', { class: 'permission-note' }, icon('shield'), ` ${tool.permissionNote}`));
  if (tool.rawInput) card.append(disclosure('Raw input', tool.rawInput));
  if (tool.rawOutput) card.append(disclosure('Raw output', tool.rawOutput));
  card.append(showFramesLink(tool.toolCallId, (toolCallId) => context.post({ type: 'showFrames', toolCallId })));
  return card;
}

function renderContent(content: ToolContentView, context: CardContext, toolCallId: string): HTMLElement {
  switch (content.type) {
    case 'text':
      // Focusable: a long output scrolls, and a scroller the keyboard cannot reach cannot be read without a mouse.
      return el('pre', { class: 'tool-text', tabindex: '0', 'aria-label': 'Tool output' }, content.text);
    case 'diff': {
      // While the file has pending changes, the card offers them hunk by hunk.
      const pending = context.review.file(content.path);
      if (!pending || pending.hunks.length === 0) return renderAgentDiff(diffViewOf(content), context.paths);
      const { feedback, ui } = context.review;
      const hunks: HunkContext = { post: context.post, feedback, ui, surface: toolCallId };
      return renderPendingFile(pending, hunks, fileProgress(pending, (hunkId) => feedback.isReviewed(hunkId)));
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

/** Cards are drawn again whenever the pending changes move: a diff is computed once per content. */
const diffViews = new WeakMap<DiffContent, AgentDiffView>();

function diffViewOf(content: DiffContent): AgentDiffView {
  let view = diffViews.get(content);
  if (!view) {
    view = agentDiffView(content);
    diffViews.set(content, view);
  }
  return view;
}

/** A file name as the agent wrote it, escaped, and isolated so its direction cannot reorder the text around it. */
function fileName(label: string): HTMLElement {
  return el('bdi', {}, visibleText(label));
}

/** Files outside the workspace keep their full path and say so: the place to look twice. */
function outsideMark(name: PathLabel): HTMLElement | null {
  return name.outside ? el('span', { class: 'outside-workspace', title: 'This file is outside the workspace folder' }, icon('warning'), ' outside the workspace') : null;
}

/** An agent's diff as numbered lines: each hunk's lines counted from its old and new starts, a gap line between hunks. */
function numberedLines(diff: AgentDiffView): (NumberedLine | { gap: string })[] {
  const lines: (NumberedLine | { gap: string })[] = [];
  for (const hunk of diff.hunks) {
    if (hunk.newStart > 1 || diff.hunks.length > 1) lines.push({ gap: `… line ${hunk.newStart}` });
    let old = hunk.oldStart;
    let next = hunk.newStart;
    for (const line of hunk.lines) {
      lines.push({ kind: line.kind, text: line.text, old: line.kind === 'added' ? null : old++, new: line.kind === 'removed' ? null : next++ });
    }
  }
  if (diff.hunks.length === 0) lines.push({ gap: 'No change: the new text is the same as the old.' });
  if (diff.omittedLines > 0) lines.push({ gap: `… ${diff.omittedLines} more ${diff.omittedLines === 1 ? 'line' : 'lines'} not shown` });
  return lines;
}

function renderAgentDiff(diff: AgentDiffView, paths: WorkspacePaths): HTMLElement {
  const name = paths.label(diff.path);
  return el('div', { class: 'tool-diff' },
    el('div', { class: 'diff-path', title: visibleText(name.full) }, icon('diff'), el('span', {}, fileName(name.label), diff.newFile ? ' (new file)' : ''), outsideMark(name), el('span', { class: 'diff-stats' }, ` +${diff.added} −${diff.removed}`)),
    renderDiffLines(numberedLines(diff), languageOfPath(diff.path), `Changes to ${visibleText(name.label)}`));
}

/** The verb of a permission question about one file; kinds without one get the general question. */
const fileVerbs: Record<ToolKindView, string | null> = {
  read: 'read', edit: 'change', delete: 'delete', move: null, search: null, execute: null, think: null, fetch: null, switch_mode: null, other: null,
};

/** What the user is asked to allow, in words: the command, the file, or the tool. */
function permissionQuestion(tool: ToolCallView, paths: WorkspacePaths): (string | HTMLElement)[] {
  if (tool.toolKind === 'execute') return ['The agent wants to run this command:'];
  const verb = fileVerbs[tool.toolKind];
  if (!verb) return ['The agent asks for permission.'];
  const diff = tool.content.find((content) => content.type === 'diff');
  const path = diff?.path ?? tool.locations[0]?.path;
  // A diff from nothing makes a file: that is creating it, not changing it.
  const action = verb === 'change' && diff && diff.oldText === null ? 'create' : verb;
  if (!path) return [`The agent wants to ${action} a file.`];
  const name = paths.label(path);
  return [`The agent wants to ${action} `, fileName(name.label), `${name.outside ? ', outside the workspace' : ''}.`];
}

/**
 * The command a permission to run allows, whole, as the tool's raw input names it: the agent's
 * title is its own summary and may say something else. The title stands in when the input names none.
 */
function renderCommand(tool: ToolCallView): HTMLElement[] {
  if (tool.toolKind !== 'execute') return [];
  const command = commandOfRawInput(jsonOrNull(tool.rawInput)) ?? tool.title;
  return [el('pre', { class: 'permission-command' }, visibleLines(command))];
}

function jsonOrNull(text: string | null): unknown {
  try {
    return text === null ? null : JSON.parse(text);
  } catch {
    return null;
  }
}

/** The change an edit asks to make, shown before its options: the agent's diffs, or that it sent none. */
function renderChange(change: PermissionChangeView | null, paths: WorkspacePaths): HTMLElement[] {
  if (!change) return [];
  if (change.kind === 'noDiff') return [el('div', { class: 'permission-no-diff', role: 'note' }, icon('warning'), ` ${change.sentence}`)];
  return change.diffs.map((diff) => renderAgentDiff(diff, paths));
}

function renderPermission(requestId: string, options: PermissionOptionView[], question: (string | HTMLElement)[], shown: HTMLElement[], post: PostToHost): HTMLElement {
  const row = el('div', { class: 'permission-options', role: 'group', 'aria-label': 'The agent asks for permission' });
  for (const option of options) {
    const allow = option.kind.startsWith('allow');
    const name = visibleText(option.name);
    row.append(button(name, {
      icon: allow ? 'check' : 'close',
      secondary: !(option.kind === 'allow_once'),
      title: `${name} (${option.kind.replace('_', ' ')})`,
      onClick: () => post({ type: 'answerPermission', requestId, optionId: option.optionId }),
    }));
  }
  // How long each "always" lasts is said before the click, in Tandem's words next to the agent's.
  const lifetimes = options.filter((option) => option.lifetime).map((option) =>
    el('div', { class: 'permission-lifetime', role: 'note' }, icon('history'), ` "${visibleText(option.name)}" lasts ${option.lifetime ?? ''}.`));
  return el('div', { class: 'permission' }, el('div', { class: 'permission-prompt' }, icon('shield'), ' ', ...question), ...shown, row, ...lifetimes);
}

/**
 * Raw input or output behind a button. Most cards of a long thread carry one, and as a `<details>`
 * each brought a shadow tree and style sheet of its own to the card's first frame (about a sixth
 * of an appended card's frame, and of a long thread's load). One listener serves every button
 * (listenForRawToggles). A card drawn again starts closed, as the `<details>` did.
 */
function disclosure(summary: string, text: string): HTMLElement {
  const body = el('pre', { tabindex: '0', 'aria-label': summary }, text.length > 100_000 ? `${text.slice(0, 100_000)}\n… (${text.length - 100_000} more characters)` : text);
  body.hidden = true;
  // The chevron is the button's ::before (media/panel.css), not an element of its own per card.
  return el('div', { class: 'raw' }, el('button', { class: 'raw-toggle', type: 'button', 'aria-expanded': 'false' }, summary), body);
}

/** One listener for every raw disclosure under `root`, including those of cards drawn later. */
export function listenForRawToggles(root: HTMLElement): void {
  root.addEventListener('click', (event) => {
    const toggle = (event.target as Element | null)?.closest<HTMLElement>('button.raw-toggle');
    if (toggle) toggleRaw(toggle);
  });
}

function toggleRaw(toggle: HTMLElement): void {
  const open = toggle.getAttribute('aria-expanded') !== 'true';
  toggle.setAttribute('aria-expanded', String(open));
  const body = toggle.nextElementSibling as HTMLElement | null;
  if (body) body.hidden = !open;
}
