import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { writeDiskText, type WrittenText } from '../../src/files/diskText';
import { replaceFileContent, writeTarget } from '../../src/files/fileAccess';
import type { DocumentStore, DocumentWriter } from '../../src/files/documents';
import type { TextCodec } from '../../src/files/textEncoding';
import type { Disposable } from '../../src/util/disposable';
import { Emitter } from '../../src/util/emitter';

const UTF16_BOM = Buffer.from([0xff, 0xfe]);

/**
 * VS Code's codec for the encodings the tests use, as iconv-lite behaves in VS Code: ISO 8859-1
 * maps each byte to one character; UTF-16 LE drops its BOM when decoding and writes it back.
 * Anything it cannot hold becomes '?' on the way to bytes, as iconv-lite's default does.
 */
export class TestCodec implements TextCodec {
  /** `files.encoding` per path (the editor's setting for that file); UTF-8 for the others. */
  readonly configured = new Map<string, string>();
  /** What the editor guesses where `files.autoGuessEncoding` is on for a path. */
  readonly guesses = new Map<string, string>();
  /** Runs on every encode, with the text: the editor's encoder is a round trip to its main process, during which anything can happen. */
  onEncode: (text: string) => void = () => undefined;

  encodingsFor(path: string): readonly string[] {
    return [this.configured.get(path) ?? 'utf8'];
  }

  async guessEncoding(path: string): Promise<string | undefined> {
    return this.guesses.get(path);
  }

  async decode(bytes: Uint8Array, encoding: string): Promise<string> {
    const buffer = Buffer.from(bytes);
    if (encoding === 'iso88591') return buffer.toString('latin1');
    if (encoding === 'utf16le') return buffer.subarray(buffer.subarray(0, 2).equals(UTF16_BOM) ? 2 : 0).toString('utf16le');
    return buffer.toString('utf8');
  }

  async encode(text: string, encoding: string): Promise<Uint8Array> {
    this.onEncode(text);
    if (encoding === 'iso88591') return Buffer.from([...text].map((char) => (char.charCodeAt(0) <= 0xff && char.length === 1 ? char : '?')).join(''), 'latin1');
    if (encoding === 'utf16le') return Buffer.concat([UTF16_BOM, Buffer.from(text, 'utf16le')]);
    return Buffer.from(text, 'utf8');
  }
}

/**
 * A stand-in for the editor's documents over the real disk: "open" files hold unsaved text
 * that differs from the disk until written, as VS Code buffers do, and announce every change
 * of their text, whoever made it; a write joins them and leaves the disk alone, as the editor's
 * does. Any other write goes to disk as the editor's does (writeDiskText). Unlike VS Code's,
 * these buffers hold any text exactly.
 */
export class DiskBackedDocuments implements DocumentStore, DocumentWriter {
  readonly open = new Map<string, string>();
  readonly writes: { path: string; text: string }[] = [];
  readonly codec = new TestCodec();
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

  async write(path: string, text: string): Promise<WrittenText> {
    this.writes.push({ path, text });
    if (this.open.has(path)) {
      this.edit(path, text);
      return { text };
    }
    return writeDiskText(path, writeTarget(path, this.roots), text, this.codec);
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
