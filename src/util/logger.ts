/** The one log every part writes to; the VS Code side backs it with a LogOutputChannel. */
export interface Logger {
  trace(message: string): void;
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** The same log with every message passed through `transform` first. */
export function mappedLogger(base: Logger, transform: (message: string) => string): Logger {
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

export const silentLogger: Logger = {
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
