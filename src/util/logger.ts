/** The one log every part writes to; the VS Code side backs it with a LogOutputChannel. */
export interface Logger {
  trace(message: string): void;
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export function taggedLogger(base: Logger, tag: string): Logger {
  const prefix = `[${tag}] `;
  return {
    trace: (message) => base.trace(prefix + message),
    debug: (message) => base.debug(prefix + message),
    info: (message) => base.info(prefix + message),
    warn: (message) => base.warn(prefix + message),
    error: (message) => base.error(prefix + message),
  };
}

export const silentLogger: Logger = {
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (error && typeof error === 'object' && 'message' in error && typeof error.message === 'string') return error.message;
  return String(error);
}
