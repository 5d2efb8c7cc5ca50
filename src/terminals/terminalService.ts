import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import { resolveAgentPath } from '../files/pathBoundary';
import { cancelledError, ServiceError, throwIfCancelled } from '../files/serviceError';
import type { Disposable } from '../util/disposable';
import { type Logger } from '../util/logger';
import { errorMessage } from '../redaction/redactedLog';
import { CommandProcess, type CommandExit } from './commandProcess';
import { DisplayStream } from './displayStream';
import { commandEnvironment, displayCommand, planLaunch } from './launch';
import type { TerminalDisplays } from './terminalDisplays';
import type { AgentPriority } from '../util/processPriority';

export interface TerminalServiceOptions {
  /** The session's cwd: where commands run unless the agent names another folder. */
  cwd: string;
  /** Folders commands may run in without asking. */
  roots(): readonly string[];
  displays: TerminalDisplays;
  logger: Logger;
  /** The agent wants a cwd outside the roots. Without this, such a cwd is refused. */
  allowCwdOutsideRoots?(cwd: string): Promise<boolean>;
  /** The environment commands start from; the extension host's (the user's shell environment). */
  baseEnv?: NodeJS.ProcessEnv;
  /** The user's shell, for command lines that need one. */
  shell?: string;
  /** How commands share the CPU with the editor, read as each starts; without it they run as any program. */
  priority?(): AgentPriority;
}

/** A command to run for the agent, as any protocol asks for one. */
export interface CommandRequest {
  command: string;
  args?: string[];
  env?: { name: string; value: string }[];
  /** Where it runs; the session's cwd when absent. */
  cwd?: string | null;
  /** Output kept beyond this many bytes is cut from the start. */
  outputByteLimit?: number | null;
}

export interface CommandOutput {
  output: string;
  truncated: boolean;
  /** null while the command runs. */
  exitStatus: CommandExit | null;
}

/** Commands run for the agent with real processes the user sees, for any protocol (see workspace/acpV1Ports.ts). */
export interface CommandService extends Disposable {
  /** Starts the command and returns its terminal id at once. */
  start(request: CommandRequest, signal?: AbortSignal): Promise<string>;
  output(terminalId: string): Promise<CommandOutput>;
  waitForExit(terminalId: string, signal?: AbortSignal): Promise<CommandExit>;
  /** Ends the command; its output stays readable until released. */
  kill(terminalId: string): Promise<void>;
  /** Ends the command and forgets it. */
  release(terminalId: string): Promise<void>;
}

/** Without a limit from the agent, this much output is kept (memory stays bounded regardless). */
export const DEFAULT_OUTPUT_BYTES = 1024 * 1024;
/** The answer to `terminal/output` must fit in one JSON-RPC message (the SDK's default cap is 32 MiB). */
export const MAX_OUTPUT_BYTES = 16 * 1024 * 1024;

interface Running {
  command: CommandProcess;
  subscription: Disposable;
}

/**
 * `terminal/*` for one agent connection: real processes, started at once, each in its own
 * process group so kill and release end everything it started. Every terminal is also shown
 * (card, terminal panel) through the session's terminal displays.
 */
export class TerminalService implements CommandService {
  private readonly terminals = new Map<string, Running>();
  private readonly outsideAllowed = new Set<string>();
  private disposed = false;

  constructor(private readonly options: TerminalServiceOptions) {}

  async start(params: CommandRequest, signal?: AbortSignal): Promise<string> {
    if (this.disposed) throw new ServiceError('failed', 'the session has ended');
    if (!params.command.trim()) throw new ServiceError('invalid', 'command is empty');
    const cwd = await this.checkedCwd(params.cwd ?? null);
    // The question about a folder outside gave the agent time to give up: nothing starts for a cancelled request.
    throwIfCancelled(signal);
    const request = { command: params.command, args: params.args ?? [] };
    const plan = planLaunch(request, this.options.shell ?? process.env.SHELL);
    const limit = Math.min(MAX_OUTPUT_BYTES, Math.max(0, Math.floor(params.outputByteLimit ?? DEFAULT_OUTPUT_BYTES)));
    let command: CommandProcess;
    try {
      command = await CommandProcess.start({
        file: plan.file,
        args: plan.args,
        env: commandEnvironment(this.options.baseEnv ?? process.env, params.env ?? []),
        cwd,
        outputByteLimit: limit,
        priority: this.options.priority?.() ?? 'normal',
      });
    } catch (error) {
      throw new ServiceError('failed', `cannot run ${params.command}: ${errorMessage(error)}`);
    }
    const terminalId = `term-${randomUUID()}`;
    if (this.disposed) {
      command.dispose();
      throw new ServiceError('failed', 'the session has ended');
    }
    this.options.logger.info(`terminal ${terminalId}: ${plan.viaShell ? 'shell ' : ''}${displayCommand(request)} in ${cwd} (pid ${command.pid}, limit ${limit} bytes)`);
    void command.priority?.then((done) => this.options.logger.info(`terminal ${terminalId} runs below the editor: ${done}`));
    const { displays } = this.options;
    displays.open({ terminalId, origin: 'client', command: displayCommand(request), cwd, toolCallId: null, stop: () => void command.kill() });
    const display = new DisplayStream((text, skipped) => displays.append(terminalId, text, skipped));
    const data = command.onData((chunk) => display.push(chunk));
    const subscription = {
      dispose: () => {
        data.dispose();
        display.dispose();
      },
    };
    void command.exited.then((status) => {
      display.end();
      displays.exit(terminalId, status, command.output.truncated);
      this.options.logger.info(`terminal ${terminalId} ended: ${status.signal ?? `exit code ${status.exitCode}`}`);
    });
    this.terminals.set(terminalId, { command, subscription });
    return terminalId;
  }

  async output(terminalId: string): Promise<CommandOutput> {
    const { command } = this.running(terminalId);
    const status = command.exitStatus;
    return {
      output: command.output.text(status !== null),
      truncated: command.output.truncated,
      exitStatus: status ? { exitCode: status.exitCode, signal: status.signal } : null,
    };
  }

  async waitForExit(terminalId: string, signal?: AbortSignal): Promise<CommandExit> {
    const { command } = this.running(terminalId);
    if (!signal) return command.exited;
    const aborted = new Promise<never>((_, reject) => {
      const onAbort = () => reject(cancelledError());
      if (signal.aborted) onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      void command.exited.finally(() => signal.removeEventListener('abort', onAbort));
    });
    const status = await Promise.race([command.exited, aborted]);
    return { exitCode: status.exitCode, signal: status.signal };
  }

  async kill(terminalId: string): Promise<void> {
    await this.running(terminalId).command.kill();
  }

  async release(terminalId: string): Promise<void> {
    const terminal = this.running(terminalId);
    this.terminals.delete(terminalId);
    await terminal.command.kill();
    this.forget(terminalId, terminal);
  }

  /** The connection ended (agent stopped or crashed, session closed): nothing it started survives. */
  dispose(): void {
    this.disposed = true;
    for (const [terminalId, terminal] of this.terminals) {
      this.forget(terminalId, terminal);
    }
    this.terminals.clear();
  }

  private forget(terminalId: string, terminal: Running): void {
    terminal.command.dispose();
    // Output still in flight reaches the card until the process is gone; then the display is final.
    void terminal.command.exited.finally(() => {
      terminal.subscription.dispose();
      this.options.displays.release(terminalId);
    });
  }

  private running(terminalId: string): Running {
    const terminal = this.terminals.get(terminalId);
    if (!terminal) throw new ServiceError('invalid', `unknown or released terminal ${terminalId}`, { terminalId });
    return terminal;
  }

  private async checkedCwd(requested: string | null): Promise<string> {
    const resolved = resolveAgentPath(requested ?? this.options.cwd, this.options.cwd, this.options.roots());
    if (!resolved.inside && !this.outsideAllowed.has(resolved.realPath)) {
      const allowed = (await this.options.allowCwdOutsideRoots?.(resolved.path)) ?? false;
      if (!allowed) throw new ServiceError('invalid', `cwd ${resolved.path} is outside the workspace`, { cwd: requested });
      this.outsideAllowed.add(resolved.realPath);
    }
    if (!isFolder(resolved.path)) throw new ServiceError('invalid', `cwd ${resolved.path} is not a folder`, { cwd: requested });
    return resolved.path;
  }
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
