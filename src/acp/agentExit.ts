import type { AgentChannel } from './agentChannel';
import type { AgentExit } from './agentChannel';
import { redactSecrets } from '../redaction/secrets';

/** The agent process ended while a request to it was open. */
export class AgentExitedError extends Error {
  constructor(readonly exit: AgentExit) {
    super('agent exited');
  }
}

const EXIT_GRACE_MS = 500;

/** JSON-RPC errors often carry the useful part in `data.details`. */
export function errorDetails(error: unknown): string {
  const details = (error as { data?: { details?: unknown } } | null)?.data?.details;
  return typeof details === 'string' ? `: ${details}` : '';
}

/** The process's exit if it happens within a moment, else null. */
export function exitedSoon(agentProcess: AgentChannel): Promise<AgentExit | null> {
  return Promise.race([agentProcess.exited, new Promise<null>((resolve) => setTimeout(() => resolve(null), EXIT_GRACE_MS))]);
}

/** A request to an agent that died can never be answered: fail it with the exit instead. */
export function raceExit<T>(request: Promise<T>, agentProcess: AgentChannel): Promise<T> {
  return Promise.race([request, agentProcess.exited.then((exit) => Promise.reject(new AgentExitedError(exit)))]);
}

/**
 * One clear sentence about how an agent process ended, for notices, banners and the log; the
 * agent's last stderr lines are part of it, without their credentials. The whole tail is
 * redacted before the last lines are picked, so a key printed over several lines is seen whole.
 */
export function describeExit(agentName: string, exit: AgentExit): string {
  if (exit.spawnError) return redactSecrets(`${agentName} could not be started: ${exit.spawnError}.`);
  const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code ?? 'unknown'}`;
  const lastLines = redactSecrets(exit.stderrTail.join('\n')).split('\n').filter((line) => line.trim()).slice(-3);
  const tail = lastLines.length > 0 ? ` Last output: ${lastLines.join(' / ')}` : '';
  return `${agentName} ${how}.${tail}`;
}
