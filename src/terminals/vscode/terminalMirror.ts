import * as vscode from 'vscode';
import type { TerminalStateView } from '../../contract/terminalView';
import type { TerminalMirrorHandle } from '../terminalDisplays';
import { OutputCoalescer } from '../outputCoalescer';
import type { TerminalDisplays } from '../terminalDisplays';
import { CoalescedTask } from '../../util/coalescedTask';
import { DisposableBase, toDisposable } from '../../util/disposable';

const FLUSH_MS = 50;
/** Characters per mirror per flush; a flood in between is skipped, not queued. */
const MAX_CHARS_PER_FLUSH = 128 * 1024;
/** Written before the terminal panel opened the mirror, kept at most this long. */
const MAX_UNOPENED_CHARS = 256 * 1024;
/** Mirrors of finished commands beyond this many are closed, oldest first (reopen from the card). */
const MAX_FINISHED_MIRRORS = 8;
const MAX_NAME_LENGTH = 40;

/** Pseudoterminals want CRLF; commands print LF (they do not run in a tty). */
function toTerminalText(text: string): string {
  return text.replace(/\r?\n/g, '\r\n');
}

function mirrorName(command: string): string {
  const oneLine = command.replace(/\s+/g, ' ').trim();
  return oneLine.length > MAX_NAME_LENGTH ? `${oneLine.slice(0, MAX_NAME_LENGTH - 1)}…` : oneLine;
}

function endLine(state: TerminalStateView): string {
  const how = state.signal ? `killed by ${state.signal}` : state.exitCode === null ? 'ended' : `exit code ${state.exitCode}`;
  return `\r\n\u001b[2m[${how} after ${(state.elapsedMs / 1000).toFixed(1)} s]\u001b[0m\r\n`;
}

/** One read-only mirror in the terminal panel; typing does nothing (the command has no stdin). */
class Mirror implements vscode.Pseudoterminal {
  private readonly writeEmitter = new vscode.EventEmitter<string>();
  readonly onDidWrite = this.writeEmitter.event;
  readonly terminal: vscode.Terminal;
  private opened = false;
  private unopened = '';
  private ended = false;
  closedByUser = false;

  constructor(readonly terminalId: string, state: TerminalStateView, initialOutput: string, private readonly onClose: (mirror: Mirror) => void) {
    this.terminal = vscode.window.createTerminal({ name: mirrorName(state.command), pty: this, iconPath: new vscode.ThemeIcon('hubot'), isTransient: true });
    // No cursor: nobody types here.
    this.write(`\u001b[?25l\u001b[2m$ ${state.command}${state.cwd ? `   (${state.cwd})` : ''}\u001b[0m\r\n`);
    this.write(toTerminalText(initialOutput));
    this.update(state);
  }

  get finished(): boolean {
    return this.ended;
  }

  open(): void {
    this.opened = true;
    if (this.unopened) this.writeEmitter.fire(this.unopened);
    this.unopened = '';
  }

  close(): void {
    this.closedByUser = true;
    this.onClose(this);
  }

  handleInput(): void {
    // Read-only: the command reads no input.
  }

  output(text: string, skipped: number): void {
    if (skipped > 0) this.write(`\r\n\u001b[2m… ${skipped.toLocaleString()} characters skipped …\u001b[0m\r\n`);
    this.write(toTerminalText(text));
  }

  update(state: TerminalStateView): void {
    if (state.running || this.ended) return;
    this.ended = true;
    this.write(endLine(state));
  }

  dispose(): void {
    this.unopened = '';
    this.terminal.dispose();
    this.writeEmitter.dispose();
  }

  private write(text: string): void {
    if (!text) return;
    if (this.opened) {
      this.writeEmitter.fire(text);
      return;
    }
    this.unopened = (this.unopened + text).slice(-MAX_UNOPENED_CHARS);
  }
}

/**
 * Every terminal of a session mirrored in VS Code's terminal panel, named after its command.
 * Output arrives batched per interval and bounded, so a flood cannot swamp the panel.
 */
export class TerminalMirrors extends DisposableBase implements TerminalMirrorHandle {
  private readonly mirrors = new Map<string, Mirror>();
  private readonly output = new OutputCoalescer(MAX_CHARS_PER_FLUSH);
  /** Output still waiting for its interval is written before anything that follows it. */
  private readonly outputTask = this.register(new CoalescedTask(FLUSH_MS, () => this.writeOutput()));

  constructor(private readonly displays: TerminalDisplays) {
    super();
    this.register(displays.onEvent((event) => {
      if (event.type === 'changed') this.onChanged(event.terminal);
      else this.onOutput(event.terminalId, event.data, event.skipped);
    }));
    this.register(toDisposable(() => {
      for (const mirror of this.mirrors.values()) mirror.dispose();
      this.mirrors.clear();
    }));
  }

  /** "Open in terminal panel": shows the mirror, reopening it from the kept output if it was closed. */
  reveal(terminalId: string): void {
    const state = this.displays.view(terminalId);
    if (!state) return;
    this.outputTask.flush();
    let mirror = this.mirrors.get(terminalId);
    if (!mirror || mirror.closedByUser) {
      mirror?.dispose();
      mirror = this.create(state, this.displays.output(terminalId));
    }
    mirror.terminal.show(false);
  }

  private onChanged(state: TerminalStateView): void {
    const mirror = this.mirrors.get(state.terminalId);
    if (!mirror) {
      // A mirror opens for each new command; one the user closed stays closed.
      if (state.running) this.create(state, '');
      return;
    }
    this.outputTask.flush();
    mirror.update(state);
    this.closeOldFinished();
  }

  private onOutput(terminalId: string, data: string, skipped: number): void {
    if (!this.mirrors.has(terminalId)) return;
    this.output.push(terminalId, data, skipped);
    this.outputTask.schedule();
  }

  private writeOutput(): void {
    for (const chunk of this.output.take()) this.mirrors.get(chunk.terminalId)?.output(chunk.data, chunk.skipped);
  }

  private create(state: TerminalStateView, initialOutput: string): Mirror {
    const mirror = new Mirror(state.terminalId, state, initialOutput, (closed) => {
      if (this.mirrors.get(closed.terminalId) === closed) closed.closedByUser = true;
    });
    this.mirrors.set(state.terminalId, mirror);
    return mirror;
  }

  private closeOldFinished(): void {
    const finished = [...this.mirrors.values()].filter((mirror) => mirror.finished && !mirror.closedByUser);
    for (const mirror of finished.slice(0, Math.max(0, finished.length - MAX_FINISHED_MIRRORS))) {
      mirror.closedByUser = true;
      mirror.dispose();
    }
  }
}
