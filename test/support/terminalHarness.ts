import { readFileSync } from 'node:fs';
import { SessionController } from '../../src/conversation/sessionController';
import type { SessionEnvironment } from '../../src/conversation/sessionEnvironment';
import type { FolderScopeParts } from '../../src/workspace/workspaceScope';
import { TerminalService } from '../../src/terminals/terminalService';
import type { TerminalScriptResult } from './scenarios/terminals';
import { scriptedDefinition, scriptedEnvironmentIn } from './sessionBuilders';

/** Tandem's TerminalService serving the session's `terminal/*`. */
export const terminalServices: FolderScopeParts = {
  commands: (context) => new TerminalService({ cwd: context.cwd, roots: () => [context.cwd], displays: context.terminalDisplays, logger: context.logger }),
};

/**
 * A session with the scripted agent whose `terminal/*` is served by Tandem's TerminalService.
 * The agent is a process, as some callers kill it; `extra.startAgent` can run it in memory.
 */
export function terminalSession(workspace: string, env: Record<string, string> = {}, extra: Partial<SessionEnvironment> = {}): SessionController {
  return new SessionController(scriptedDefinition({ env }), { ...scriptedEnvironmentIn(workspace, { agent: 'process', scope: terminalServices }), ...extra });
}

/** The scripted agent's `terminal` scenario replies with its results as JSON. */
export function scriptResult(session: SessionController): TerminalScriptResult {
  return JSON.parse(session.thread.lastAgentText()) as TerminalScriptResult;
}

/** Alive and not a zombie (a container's init may never reap orphans). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return process.platform !== 'linux';
  }
}

/**
 * A command that starts a process tree (a child, and a grandchild through a shell), ignores
 * SIGTERM itself, prints `pids:<self>,<child>,<shell>,<grandchild>` and runs until killed.
 */
export const PROCESS_TREE_SCRIPT = [
  "const { spawn } = require('node:child_process');",
  "const a = spawn('sleep', ['1000'], { stdio: 'ignore' });",
  "const b = spawn('sh', ['-c', 'sleep 1000 & echo $!; wait'], { stdio: ['ignore', 'pipe', 'ignore'] });",
  "b.stdout.once('data', (d) => console.log('pids:' + [process.pid, a.pid, b.pid, String(d).trim()].join(',')));",
  "process.on('SIGTERM', () => {});",
  'setInterval(() => {}, 1000);',
].join(' ');

export function pidsIn(output: string): number[] | undefined {
  const match = /pids:([\d,]+)/.exec(output);
  return match?.[1]?.split(',').map(Number);
}
