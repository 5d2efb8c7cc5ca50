import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as vscode from 'vscode';
import { isMissing } from '../files/fileAccess';
import { type Logger } from '../util/logger';
import { errorMessage } from '../redaction/redactedLog';

const KEY = /^[\w.-]+$/;
const SUFFIX = '.json';

/**
 * Tandem's larger workspace records (conversations, the review ledger with its files' texts, the
 * checkpoint index), one JSON file per key in the extension's workspace storage folder, on the
 * extension host's own disk. VS Code's workspaceState sends the extension's whole state, every key,
 * to the window on each update (in code-server over the browser's socket, into the main thread the
 * panel and the editor share): a checkpoint at every prompt, or a ledger save while an agent edits,
 * carried every conversation and every pending file's text through it. A key is read once, then
 * kept; a write replaces its file whole (temp file, then rename), so a reload or crash finds the
 * last write or the one before, never half of one. Records from before, in workspaceState, are read
 * from there until the key is first written here, which clears them there.
 */
export class FileMemento implements vscode.Memento {
  private readonly values = new Map<string, unknown>();

  constructor(private readonly folder: string, private readonly legacy: vscode.Memento, private readonly logger: Logger) {}

  keys(): readonly string[] {
    const saved = this.files().map((name) => name.slice(0, -SUFFIX.length));
    return [...new Set([...saved, ...this.values.keys()])].filter((key) => this.get(key) !== undefined);
  }

  get<T>(key: string): T | undefined;
  get<T>(key: string, defaultValue: T): T;
  get<T>(key: string, defaultValue?: T): T | undefined {
    if (!this.values.has(key)) this.values.set(key, this.load(key));
    const value = this.values.get(key);
    return value === undefined ? defaultValue : (value as T);
  }

  update(key: string, value: unknown): Thenable<void> {
    this.values.set(key, value);
    try {
      this.store(key, value);
      if (this.legacy.get(key) !== undefined) void this.legacy.update(key, undefined);
    } catch (error) {
      this.logger.error(`[storage] could not save ${key} in ${this.folder}: ${errorMessage(error)}`);
    }
    return Promise.resolve();
  }

  private pathOf(key: string): string {
    if (!KEY.test(key)) throw new Error(`Not a storage key: ${key}`);
    return join(this.folder, `${key}${SUFFIX}`);
  }

  private load(key: string): unknown {
    const path = this.pathOf(key);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      if (isMissing(error)) return this.legacy.get(key);
      this.logger.error(`[storage] could not read ${path}: ${errorMessage(error)}`);
      return undefined;
    }
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      // Kept beside, not overwritten by the next save: what it held may still be worth recovering by hand.
      const aside = `${path}.unreadable`;
      try {
        renameSync(path, aside);
        this.logger.error(`[storage] ${path} is not JSON (${errorMessage(error)}); moved to ${aside}, starting without it`);
      } catch (moveError) {
        this.logger.error(`[storage] ${path} is not JSON (${errorMessage(error)}) and could not be moved aside (${errorMessage(moveError)})`);
      }
      return undefined;
    }
  }

  private store(key: string, value: unknown): void {
    const path = this.pathOf(key);
    if (value === undefined) return rmSync(path, { force: true });
    mkdirSync(this.folder, { recursive: true, mode: 0o700 });
    const temp = `${path}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify(value), { mode: 0o600 });
    renameSync(temp, path);
  }

  private files(): string[] {
    try {
      return readdirSync(this.folder).filter((name) => name.endsWith(SUFFIX));
    } catch (error) {
      if (isMissing(error)) return [];
      throw error;
    }
  }
}

/** Where Tandem keeps its larger workspace records: files in workspace storage, or workspaceState without a folder (no storage folder then). */
export function workspaceRecords(context: vscode.ExtensionContext, logger: Logger): vscode.Memento {
  return context.storageUri ? new FileMemento(join(context.storageUri.fsPath, 'state'), context.workspaceState, logger) : context.workspaceState;
}
