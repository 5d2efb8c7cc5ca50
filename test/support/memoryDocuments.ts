import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DocumentStore } from '../../src/fs/fsService';
import type { Disposable } from '../../src/util/disposable';
import { Emitter } from '../../src/util/emitter';

/**
 * A stand-in for the editor's documents over the real disk: "open" files hold unsaved text
 * that differs from the disk until written, as VS Code buffers do, and announce every change
 * of their text, whoever made it.
 */
export class DiskBackedDocuments implements DocumentStore {
  readonly open = new Map<string, string>();
  readonly writes: { path: string; text: string }[] = [];
  private readonly changes = new Emitter<{ path: string; text: string }>();

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

  async readDisk(path: string): Promise<Uint8Array | null> {
    return existsSync(path) ? readFileSync(path) : null;
  }

  async write(path: string, text: string): Promise<void> {
    this.writes.push({ path, text });
    if (this.open.has(path)) this.edit(path, text);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }

  /** As the editor's: exact text to disk (null deletes), through the document while one is open. */
  async writeExact(path: string, text: string | null): Promise<void> {
    if (text === null) {
      rmSync(path, { force: true });
      return;
    }
    if (this.open.has(path)) return this.write(path, text);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
}
