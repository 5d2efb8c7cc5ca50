import * as path from 'node:path';
import * as vscode from 'vscode';
import type { MentionView, UsageView } from '../contract/conversationView';
import { formatCost, usageDescription, usageLabel } from '../contract/usageText';
import type { ConversationEditor } from '../panel/conversationFeature';
import { isRememberedCommandsRecord } from '../panel/rememberedCommands';
import { MementoList } from '../permissions/vscode/mementoList';
import type { Logger } from '../util/logger';
import { FOCUS_CHAT_COMMAND, STORAGE_KEYS, USAGE_STATUS_ITEM } from '../contract/ids';

const MAX_MENTIONS = 40;
const MAX_MENTION_BYTES = 2 * 1024 * 1024;

function relative(fsPath: string): string {
  return vscode.workspace.asRelativePath(fsPath, false);
}

function fileMention(fsPath: string, open: boolean): MentionView {
  return { kind: 'file', label: path.basename(fsPath), path: fsPath, detail: relative(fsPath), startLine: null, endLine: null, open };
}

/** Only characters that cannot change the meaning of a glob. */
function globSafe(query: string): string {
  return query.replace(/[^\w.\-/ ]/g, '');
}

function openEditorPaths(): string[] {
  const paths: string[] = [];
  for (const group of vscode.window.tabGroups.all) {
    for (const tab of group.tabs) {
      if (tab.input instanceof vscode.TabInputText && tab.input.uri.scheme === 'file') paths.push(tab.input.uri.fsPath);
    }
  }
  return [...new Set(paths)];
}

type PathFilter = (fsPath: string) => boolean;

/** The active editor's selection, when the query could mean it ("sel…", or its file's path). */
function selectionMention(needle: string, matches: PathFilter): MentionView | null {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.selection.isEmpty || editor.document.uri.scheme !== 'file') return null;
  const fsPath = editor.document.uri.fsPath;
  if (needle && !'selection'.startsWith(needle) && !matches(fsPath)) return null;
  const { start, end } = editor.selection;
  // A selection that ends at the start of a line does not include that line.
  const endLine = end.character === 0 && end.line > start.line ? end.line : end.line + 1;
  return { kind: 'selection', label: path.basename(fsPath), path: fsPath, detail: `selection, lines ${start.line + 1}-${endLine}`, startLine: start.line + 1, endLine, open: true };
}

/** Workspace folders that hold matching files and whose own name matches. */
function folderMentions(files: readonly vscode.Uri[], needle: string, matches: PathFilter): MentionView[] {
  const folders = new Set<string>();
  for (const uri of files) {
    const dir = path.dirname(uri.fsPath);
    if (vscode.workspace.getWorkspaceFolder(uri) && relative(dir) !== dir && matches(dir) && path.basename(dir).toLowerCase().includes(needle)) folders.add(dir);
  }
  return [...folders].slice(0, 10).map((dir) => ({ kind: 'folder', label: `${path.basename(dir)}/`, path: dir, detail: relative(dir), startLine: null, endLine: null, open: false }));
}

/** `@` candidates: the selection first, then open editors, then workspace folders and files matching the query. */
async function findMentions(query: string): Promise<MentionView[]> {
  const needle = query.toLowerCase();
  const matches: PathFilter = (fsPath) => !needle || relative(fsPath).toLowerCase().includes(needle);
  const selection = selectionMention(needle, matches);
  const open = openEditorPaths().filter(matches);
  const pattern = needle ? `**/*${globSafe(query)}*` : '**/*';
  const files = await vscode.workspace.findFiles(pattern, '**/{node_modules,.git}/**', 200);
  const seen = new Set(open);
  const others: MentionView[] = [];
  for (const uri of files) {
    if (!seen.has(uri.fsPath)) others.push(fileMention(uri.fsPath, false));
    seen.add(uri.fsPath);
  }
  return [
    ...(selection ? [selection] : []),
    ...open.map((fsPath) => fileMention(fsPath, true)),
    ...folderMentions(files, needle, matches),
    ...others,
  ].slice(0, MAX_MENTIONS);
}

/** The open document's text (unsaved edits included) or the file on disk; a selection's lines. */
async function readMention(mention: MentionView): Promise<string | null> {
  const uri = vscode.Uri.file(mention.path);
  try {
    const open = vscode.workspace.textDocuments.find((document) => document.uri.fsPath === uri.fsPath);
    const document = open ?? (await vscode.workspace.openTextDocument(uri));
    if (document.getText().length > MAX_MENTION_BYTES) return null;
    if (mention.kind === 'selection' && mention.startLine) {
      const last = Math.min(document.lineCount, mention.endLine ?? mention.startLine) - 1;
      return document.getText(new vscode.Range(mention.startLine - 1, 0, last, document.lineAt(last).text.length));
    }
    return document.getText();
  } catch {
    // Binary files and folders are linked, not embedded.
    return null;
  }
}

/** The usage meter mirrored in the status bar; clicking it shows the panel. */
class UsageStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(USAGE_STATUS_ITEM, vscode.StatusBarAlignment.Right, 100);

  constructor() {
    this.item.name = 'Tandem context usage';
    this.item.command = FOCUS_CHAT_COMMAND;
  }

  show(usage: UsageView | null, agentName: string): void {
    if (!usage) {
      this.item.hide();
      return;
    }
    const label = usageLabel(usage);
    if (usage.kind === 'context') {
      this.item.text = `$(pie-chart) ${label}${usage.cost ? ` · ${formatCost(usage.cost)}` : ''}`;
      this.item.backgroundColor = usage.level === 'full' ? new vscode.ThemeColor('statusBarItem.errorBackground')
        : usage.level === 'warning' ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    } else {
      this.item.text = `$(pulse) ${label}`;
      this.item.backgroundColor = undefined;
    }
    this.item.tooltip = `${agentName}: ${usageDescription(usage)}`;
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}

/** The editor's side of the conversation controls. */
export function createConversationEditor(context: vscode.ExtensionContext, logger: Logger): ConversationEditor {
  const status = new UsageStatus();
  context.subscriptions.push(status);
  return {
    findMentions: (query) => findMentions(query).catch((error: unknown) => {
      logger.warn(`[mentions] ${error instanceof Error ? error.message : String(error)}`);
      return [];
    }),
    readMention,
    copyText: (text) => void vscode.env.clipboard.writeText(text),
    revealLocation: (fsPath, line) => {
      const position = new vscode.Position(Math.max(0, (line ?? 1) - 1), 0);
      vscode.window.showTextDocument(vscode.Uri.file(fsPath), { preserveFocus: true, preview: true, selection: new vscode.Range(position, position) })
        .then(undefined, () => logger.debug(`[follow] could not open ${fsPath}`));
    },
    showUsage: (usage, agentName) => status.show(usage, agentName),
    rememberedCommands: new MementoList(context.globalState, STORAGE_KEYS.rememberedCommands, isRememberedCommandsRecord),
  };
}
