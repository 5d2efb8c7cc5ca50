import { Emitter } from './emitter';
import { BoundedLog } from './ringBuffer';

const MAX_LINES = 200;
const MAX_CHARS = 256 * 1024;
/** A program that never prints a newline must not grow the unfinished line without bound. */
const MAX_PARTIAL_CHARS = 16 * 1024;

/**
 * A program's free-form log (an agent's stderr) as lines: the newest kept within a budget for
 * error reports, each line announced as it completes.
 */
export class LineLog {
  private readonly lines = new BoundedLog<string>(MAX_LINES, MAX_CHARS, (line) => line.length);
  private partial = '';
  private readonly lineEmitter = new Emitter<string>();
  readonly onLine = this.lineEmitter.event;

  /** A chunk of the stream: its complete lines go in, the rest waits for its newline. */
  write(chunk: string): void {
    const lines = (this.partial + chunk).split('\n');
    this.partial = lines.pop() ?? '';
    for (const line of lines) this.push(line);
    if (this.partial.length > MAX_PARTIAL_CHARS) this.end();
  }

  /** One whole line; the CR of a CRLF ending is not part of it. */
  push(rawLine: string): void {
    const line = rawLine.replace(/\r$/, '');
    this.lines.push(line);
    this.lineEmitter.fire(line);
  }

  /** The stream ended (or the line grew too long): an unfinished last line counts as one. */
  end(): void {
    if (this.partial) this.push(this.partial);
    this.partial = '';
  }

  tail(count = 20): string[] {
    return this.lines.toArray().slice(-count);
  }
}
