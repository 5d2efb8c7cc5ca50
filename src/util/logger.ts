import { redactSecrets, SecretLines } from './secrets';

/** The one log every part writes to; the VS Code side backs it with a LogOutputChannel. */
export interface Logger {
  trace(message: string): void;
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** The same log with every message passed through `transform` first. */
function mappedLogger(base: Logger, transform: (message: string) => string): Logger {
  return {
    trace: (message) => base.trace(transform(message)),
    debug: (message) => base.debug(transform(message)),
    info: (message) => base.info(transform(message)),
    warn: (message) => base.warn(transform(message)),
    error: (message) => base.error(transform(message)),
  };
}

export function taggedLogger(base: Logger, tag: string): Logger {
  const prefix = `[${tag}] `;
  return mappedLogger(base, (message) => prefix + message);
}

/**
 * The log as people and bug reports see it: credentials are removed from every message
 * (command lines, an agent's stderr, error texts), whoever wrote it.
 */
export function redactingLogger(base: Logger): Logger {
  const lines = new SecretLines();
  return mappedLogger(base, (message) => lines.redact(message));
}

export const silentLogger: Logger = {
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

/** An error as one sentence for the user; agents' error texts can quote credentials, so they are redacted. */
export function errorMessage(error: unknown): string {
  return redactSecrets(rawErrorMessage(error));
}

function rawErrorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (error && typeof error === 'object' && 'message' in error && typeof error.message === 'string') return error.message;
  return String(error);
}
