import { mappedLogger, type Logger } from '../util/logger';
import { redactSecrets, SecretLines } from './secrets';

/**
 * The log as people and bug reports see it: credentials are removed from every message
 * (command lines, an agent's stderr, error texts), whoever wrote it.
 */
export function redactingLogger(base: Logger): Logger {
  const lines = new SecretLines();
  return mappedLogger(base, (message) => lines.redact(message));
}

/** An error as one sentence for the user; agents' error texts can quote credentials, so they are redacted. */
export function errorMessage(error: unknown): string {
  return redactSecrets(rawErrorMessage(error));
}

function rawErrorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (error && typeof error === 'object' && 'message' in error && typeof error.message === 'string') return error.message;
  return String(error);
}
