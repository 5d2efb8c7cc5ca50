import { rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { assertLeadsTo, ensureRegularFile, readRegularFile, writeRegularFile, writeTarget } from '../fs/fileAccess';
import type { DocumentStore } from '../fs/fsService';
import { minimalEdits } from '../fs/minimalEdits';
import { followLinks } from '../fs/pathBoundary';
import { MAX_TEXT_FILE_BYTES, withoutBom } from '../fs/textContent';

function openDocument(path: string): vscode.TextDocument | undefined {
  return vscode.workspace.textDocuments.find((document) => document.uri.scheme === 'file' && document.uri.fsPath === path && !document.isClosed);
}

function workspaceRoots(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath);
}

/**
 * Files as the editor sees them. Writes go through a WorkspaceEdit of minimal replacements,
 * so each agent write is one step on the document's undo stack, then the document is saved.
 * Every write lands on the real file checked when it started: a link along the path that
 * leads out of the workspace or to nothing, or that changes before the edit or the save, refuses it.
 */
export class EditorDocuments implements DocumentStore {
  openText(path: string): string | undefined {
    return openDocument(path)?.getText();
  }

  async readDisk(path: string): Promise<Uint8Array | null> {
    return readRegularFile(followLinks(path).realPath, MAX_TEXT_FILE_BYTES);
  }

  async write(path: string, text: string): Promise<void> {
    const uri = vscode.Uri.file(path);
    // The document keeps its encoding (and so its BOM) on save; its text never holds the BOM.
    const target = withoutBom(text);
    const realPath = writeTarget(path, workspaceRoots());
    if (!openDocument(path)) await ensureRegularFile(realPath);
    const document = await vscode.workspace.openTextDocument(uri);
    const edits = minimalEdits(document.getText(), target);
    if (edits.length > 0) {
      const edit = new vscode.WorkspaceEdit();
      for (const replacement of edits) {
        edit.replace(uri, new vscode.Range(document.positionAt(replacement.start), document.positionAt(replacement.end)), replacement.text);
      }
      assertLeadsTo(path, realPath);
      if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`The editor refused the edit to ${path}.`);
    }
    if (!document.isDirty) return;
    assertLeadsTo(path, realPath);
    if (!(await document.save())) throw new Error(`${path} could not be saved.`);
  }

  /** Exact bytes to disk, for changes the agent made there itself; open clean editors reload. */
  async writeExact(path: string, text: string | null): Promise<void> {
    if (text === null) {
      // The entry itself goes (a link, not what it points to), from the real folder it was checked in.
      await rm(join(writeTarget(dirname(path), workspaceRoots()), basename(path)), { force: true });
      return;
    }
    const open = openDocument(path);
    if (open?.isDirty) {
      // Never drop the user's unsaved edits behind their back: go through the document.
      await this.write(path, text);
      return;
    }
    await writeRegularFile(writeTarget(path, workspaceRoots()), text);
  }
}
