import { basename } from 'node:path';
import * as vscode from 'vscode';
import { writeDiskText, type WrittenText } from '../diskText';
import { assertLeadsTo, FileRefused, replaceFileContent, writeRegularFile, writeTarget } from '../fileAccess';
import type { DocumentStore, DocumentWriter } from '../documents';
import { minimalEdits } from '../minimalEdits';
import { followLinks } from '../pathBoundary';
import { withoutBom } from '../textContent';
import type { TextCodec } from '../textEncoding';
import { bufferHolds, sameLines, type BufferShape } from '../exactLines';
import { visibleText } from '../../util/visibleText';

/** How long a write to disk waits for a clean document of the file to reload it. */
const RELOAD_WAIT_MS = 3000;

/** The editor's open document of the file at `path`, if there is one. */
export function openDocument(path: string): vscode.TextDocument | undefined {
  return vscode.workspace.textDocuments.find((document) => document.uri.scheme === 'file' && document.uri.fsPath === path && !document.isClosed);
}

function shapeOf(document: vscode.TextDocument): BufferShape {
  return { eol: document.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n', encoding: document.encoding };
}

/** The exact text a document saves: its BOM is part of its encoding, never of its text. */
function savedText(document: vscode.TextDocument): string {
  return document.encoding === 'utf8bom' ? `\uFEFF${document.getText()}` : document.getText();
}

/** The bytes of `text` in the encoding of the document that holds the file (UTF-8 when none does). */
async function encoded(text: string, encoding: string | undefined): Promise<Uint8Array> {
  if (encoding === undefined || encoding === 'utf8' || encoding === 'utf8bom') return Buffer.from(text, 'utf8');
  return vscode.workspace.encode(withoutBom(text), { encoding });
}

/**
 * The editor's encodings: VS Code's own encoder and decoder, the encoding an open document was
 * read in (settings, a guess, or the user's **Reopen with Encoding**), then `files.encoding`.
 */
const editorCodec: TextCodec = {
  encodingsFor(path) {
    const configured = vscode.workspace.getConfiguration('files', vscode.Uri.file(path)).get<string>('encoding');
    return [openDocument(path)?.encoding, configured].filter((encoding): encoding is string => typeof encoding === 'string');
  },
  async guessEncoding(path) {
    const uri = vscode.Uri.file(path);
    if (!vscode.workspace.getConfiguration('files', uri).get<boolean>('autoGuessEncoding')) return undefined;
    // Opening the document makes VS Code guess as it does for an editor; its encoding is the guess.
    return (openDocument(path) ?? (await vscode.workspace.openTextDocument(uri))).encoding;
  },
  decode: async (bytes, encoding) => vscode.workspace.decode(bytes, { encoding }),
  encode: async (text, encoding) => vscode.workspace.encode(text, { encoding }),
};

/**
 * Resolves once `shows()` holds for the document, or after a bound: a clean document reloads by
 * itself when its file changes on disk (a dirty one never does, so the bound is all it waits).
 */
function reloaded(document: vscode.TextDocument, shows: () => boolean): Promise<void> {
  if (document.isClosed || shows()) return Promise.resolve();
  return new Promise((resolve) => {
    const listener = vscode.workspace.onDidChangeTextDocument((event) => {
      if (event.document === document && shows()) done();
    });
    const timer = setTimeout(() => done(), RELOAD_WAIT_MS);
    function done(): void {
      clearTimeout(timer);
      listener.dispose();
      resolve();
    }
  });
}

/** Whether to save the user's unsaved edits of `path` so an undo can write the file on disk; false keeps the agent's change. */
async function askToSaveFirst(path: string): Promise<boolean> {
  const name = visibleText(vscode.workspace.asRelativePath(path, false));
  const save = vscode.l10n.t('Save and Undo');
  const answer = await vscode.window.showWarningMessage(
    vscode.l10n.t('{0} has unsaved edits. Undoing the agent\'s change needs line endings the editor cannot hold, so Tandem writes the file on disk: save your edits first, then undo?', name),
    { modal: true, detail: vscode.l10n.t('Cancel keeps the agent\'s change and your unsaved edits as they are.') },
    save,
  );
  return answer === save;
}

/**
 * Files as the editor sees them, written so the bytes on disk are exactly the text meant. A
 * document with unsaved edits takes a write as one WorkspaceEdit of minimal replacements (one
 * step on its undo stack), and stays unsaved: saving is the user's. Any other write puts the
 * exact bytes on disk, in the file's encoding, and a clean document reloads them, which VS Code
 * keeps as one undo step. Tandem writes those bytes itself, never by asking the editor to save a
 * path: every write lands on the real file checked when it started, and a link along the path
 * that leads out of the workspace or to nothing, or that changes on the way, refuses it. The
 * disk is never written behind unsaved edits.
 */
export class EditorDocuments implements DocumentStore, DocumentWriter {
  readonly codec = editorCodec;

  constructor(private readonly roots: () => readonly string[]) {}

  /** Unsaved text only: a clean buffer shows the file through VS Code's line-ending rules, the disk has its exact text. */
  openText(path: string): string | undefined {
    const document = openDocument(path);
    return document?.isDirty ? savedText(document) : undefined;
  }

  /**
   * An agent's write. Lines whose text it left as it was keep the line endings they have on disk;
   * returns the exact text the file holds afterwards.
   */
  async write(path: string, text: string): Promise<WrittenText> {
    const realPath = writeTarget(path, this.roots());
    const open = openDocument(path);
    if (open?.isDirty) {
      // The agent worked on the user's unsaved text, so its write joins them in the buffer.
      await this.edit(path, realPath, open, text);
      return { text: savedText(open) };
    }
    const version = open?.version;
    const written = await writeDiskText(path, realPath, text, this.codec);
    if (open) await reloaded(open, () => open.version !== version || sameLines(open.getText(), withoutBom(written.text)));
    return written;
  }

  /** Undo or redo of a change made through the editor: exact, through the document where it can hold the result. */
  async restore(path: string, text: string): Promise<void> {
    const realPath = writeTarget(path, this.roots());
    if (await this.besideUnsavedEdits(path, realPath, text)) return;
    await this.exactly(path, realPath, text, openDocument(path));
  }

  /** Exact content to disk (text as UTF-8, bytes as they are; null deletes), only over `replaces` when given; a clean document reloads. */
  async writeExact(path: string, content: string | Uint8Array | null, replaces?: Uint8Array | null): Promise<void> {
    if (await this.besideUnsavedEdits(path, writeTarget(path, this.roots()), content)) return;
    const open = openDocument(path);
    const version = open?.version;
    await replaceFileContent(path, this.roots(), content, replaces);
    if (!open || content === null) return;
    await reloaded(open, typeof content === 'string' ? () => sameLines(open.getText(), withoutBom(content)) : () => open.version !== version);
  }

  /**
   * A document with unsaved edits: the write joins them when the buffer holds `content` exactly
   * (true: done). Otherwise the disk must be written, which only happens after the user saved
   * their edits at Tandem's question (false: go on to the disk); else the write is refused.
   */
  private async besideUnsavedEdits(path: string, realPath: string, content: string | Uint8Array | null): Promise<boolean> {
    const open = openDocument(path);
    if (!open?.isDirty) return false;
    if (typeof content === 'string' && bufferHolds(shapeOf(open), content)) {
      await this.edit(path, realPath, open, content);
      return true;
    }
    if (typeof content !== 'string') {
      throw new FileRefused(path, 'it has unsaved edits in the editor, which Tandem does not write over: revert them, or save them and keep the agent\'s change');
    }
    if (!(await askToSaveFirst(path))) throw new FileRefused(path, 'it has unsaved edits in the editor and you kept the agent\'s change');
    assertLeadsTo(path, realPath);
    if (!(await open.save())) throw new FileRefused(path, `${basename(path)} could not be saved`);
    // The user's save goes by the path, as their own Ctrl+S does: should a link have been swapped in meanwhile, they hear where it went.
    const now = followLinks(path).realPath;
    if (now !== realPath) {
      throw new FileRefused(path, `your edits were saved through ${path}, which now leads to ${now} instead of ${realPath} (a link along it changed meanwhile): check both files; the agent's change was not undone`);
    }
    return false;
  }

  /** The exact bytes to disk, in the encoding of the document that shows the file (UTF-8 when none does); a clean document reloads them. */
  private async exactly(path: string, realPath: string, text: string, open: vscode.TextDocument | undefined): Promise<void> {
    const bytes = await encoded(text, open?.encoding);
    assertLeadsTo(path, realPath);
    await writeRegularFile(realPath, bytes);
    if (open) await reloaded(open, () => sameLines(open.getText(), withoutBom(text)));
  }

  /** One WorkspaceEdit of minimal replacements to a document with unsaved edits: they stay unsaved, with the write among them. */
  private async edit(path: string, realPath: string, document: vscode.TextDocument, text: string): Promise<void> {
    const edits = minimalEdits(document.getText(), withoutBom(text));
    if (edits.length === 0) return;
    const edit = new vscode.WorkspaceEdit();
    for (const replacement of edits) {
      edit.replace(document.uri, new vscode.Range(document.positionAt(replacement.start), document.positionAt(replacement.end)), replacement.text);
    }
    assertLeadsTo(path, realPath);
    if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`The editor refused the edit to ${path}.`);
  }
}
