import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import * as vscode from 'vscode';
import type { DocumentStore } from '../fs/fsService';
import { minimalEdits } from '../fs/minimalEdits';
import { withoutBom } from '../fs/textContent';

function openDocument(path: string): vscode.TextDocument | undefined {
  return vscode.workspace.textDocuments.find((document) => document.uri.scheme === 'file' && document.uri.fsPath === path && !document.isClosed);
}

/**
 * Files as the editor sees them. Writes go through a WorkspaceEdit of minimal replacements,
 * so each agent write is one step on the document's undo stack, then the document is saved.
 */
export class EditorDocuments implements DocumentStore {
  openText(path: string): string | undefined {
    return openDocument(path)?.getText();
  }

  async readDisk(path: string): Promise<Uint8Array | null> {
    try {
      return await readFile(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async write(path: string, text: string): Promise<void> {
    const uri = vscode.Uri.file(path);
    // The document keeps its encoding (and so its BOM) on save; its text never holds the BOM.
    const target = withoutBom(text);
    if (!openDocument(path) && (await this.readDisk(path)) === null) {
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, '');
    }
    const document = await vscode.workspace.openTextDocument(uri);
    const edits = minimalEdits(document.getText(), target);
    if (edits.length > 0) {
      const edit = new vscode.WorkspaceEdit();
      for (const replacement of edits) {
        edit.replace(uri, new vscode.Range(document.positionAt(replacement.start), document.positionAt(replacement.end)), replacement.text);
      }
      if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`The editor refused the edit to ${path}.`);
    }
    if (document.isDirty && !(await document.save())) throw new Error(`${path} could not be saved.`);
  }

  /** Exact bytes to disk, for changes the agent made there itself; open clean editors reload. */
  async writeExact(path: string, text: string | null): Promise<void> {
    if (text === null) {
      await rm(path, { force: true });
      return;
    }
    const open = openDocument(path);
    if (open?.isDirty) {
      // Never drop the user's unsaved edits behind their back: go through the document.
      await this.write(path, text);
      return;
    }
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, text);
  }
}
