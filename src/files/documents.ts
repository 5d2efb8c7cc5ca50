// The editor's documents as the workspace services see them: the VS Code side implements both.
import type { WrittenText } from './diskText';
import type { TextCodec } from './textEncoding';

/** The editor's view of files: unsaved text of open documents first, then the disk. */
export interface DocumentStore {
  /** The open document's unsaved text (BOM included), or undefined when it has none: the disk is the truth then. */
  openText(path: string): string | undefined;
  /** The encodings the editor reads files in (its settings, its open documents'). */
  readonly codec: TextCodec;
  /**
   * Makes `text` the file's content: a document with unsaved edits takes it as one undoable edit
   * of minimal changes (the user saves it); any other file gets its exact bytes, in its encoding,
   * from Tandem itself (see writeDiskText), and a clean document shows them. Refuses when a link
   * along the path changes during the write, and never creates a file through a link. Returns
   * what the file holds afterwards: `text`, except that lines whose text is unchanged may keep
   * line endings of their own (a file that mixes them).
   */
  write(path: string, text: string): Promise<WrittenText>;
}

/** How undone and redone content reaches a file (the editor's documents), exactly. */
export interface DocumentWriter {
  /** A change made through the editor: through its document as one undoable edit where the buffer holds the text exactly, else to disk. */
  restore(path: string, text: string): Promise<void>;
  /**
   * Exact content to disk (text as UTF-8, bytes as they are; null deletes), for changes the
   * agent made there itself and content held as bytes. With `replaces` (null: no file), only
   * while the file still holds exactly that. Unsaved edits in the editor are never written over.
   */
  writeExact(path: string, content: string | Uint8Array | null, replaces?: Uint8Array | null): Promise<void>;
}
