import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { replaceFileContent } from '../../src/files/fileAccess';
import type { DocumentStore } from '../../src/files/documents';
import type { Disposable } from '../../src/util/disposable';
import { Emitter } from '../../src/util/emitter';
import type { DocumentWriter } from '../../src/files/documents';

/**
 * A stand-in for the editor's documents over the real disk: "open" files hold unsaved text
 * that differs from the disk until written, as VS Code buffers do, and announce every change
 * of their text, whoever made it. Unlike VS Code's, these buffers hold any text exactly.
 */
export class DiskBackedDocuments implements DocumentStore, DocumentWriter {
  readonly open = new Map<string, string>();
  readonly writes: { path: string; text: string }[] = [];
  private readonly changes = new Emitter<{ path: string; text: string }>();

  /** `roots`: the workspace folders, for the link checks of exact writes. */
  constructor(private readonly roots: readonly string[] = []) {}

  onDidChange(listener: (change: { path: string; text: string }) => void): Disposable {
    return this.changes.event(listener);
  }

  /** The user types: the open document's text changes, the disk does not. */
  edit(path: string, text: string): void {
    this.open.set(path, text);
    this.changes.fire({ path, text });
  }

  openText(path: string): string | undefined {
    return this.open.get(path);
  }

  async write(path: string, text: string): Promise<string> {
    this.writes.push({ path, text });
    if (this.open.has(path)) this.edit(path, text);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    return text;
  }

  async restore(path: string, text: string): Promise<void> {
    await this.write(path, text);
  }

  /** As the editor's: exact content to disk (null deletes), text through the document while one is open. */
  async writeExact(path: string, content: string | Uint8Array | null, replaces?: Uint8Array | null): Promise<void> {
    if (typeof content !== 'string' || replaces !== undefined) return replaceFileContent(path, this.roots, content, replaces);
    if (this.open.has(path)) return this.restore(path, content);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
  }
}
