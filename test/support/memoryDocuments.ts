import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DocumentStore } from '../../src/fs/fsService';

/**
 * A stand-in for the editor's documents over the real disk: "open" files hold unsaved text
 * that differs from the disk until written, as VS Code buffers do.
 */
export class DiskBackedDocuments implements DocumentStore {
  readonly open = new Map<string, string>();
  readonly writes: { path: string; text: string }[] = [];

  openText(path: string): string | undefined {
    return this.open.get(path);
  }

  async readDisk(path: string): Promise<Uint8Array | null> {
    return existsSync(path) ? readFileSync(path) : null;
  }

  async write(path: string, text: string): Promise<void> {
    this.writes.push({ path, text });
    if (this.open.has(path)) this.open.set(path, text);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
}
