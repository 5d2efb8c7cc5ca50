/**
 * Why an editor service (files, terminals) refused or failed, in a sentence the agent can act
 * on. The services speak no protocol: each adapter (ACP v1 today; MCP or ACP v2 next) turns the
 * kind into its own error, so the same refusal reads the same on every wire.
 */
export type ServiceErrorKind =
  /** What the request names does not exist (`data.path`: the file as resolved). */
  | 'notFound'
  /** The request names something unusable or refused (a path outside, a binary file, a missing folder). */
  | 'invalid'
  /** The request no longer fits what it was based on (the user changed the file after the agent read it). */
  | 'conflict'
  /** The service could not do what was asked (a command that cannot start, a session that ended). */
  | 'failed'
  /** The caller cancelled the request. */
  | 'cancelled';

export class ServiceError extends Error {
  constructor(readonly kind: ServiceErrorKind, message: string, readonly data?: Record<string, unknown>) {
    super(message);
    this.name = 'ServiceError';
  }
}

/** The caller gave up on the request. */
export function cancelledError(): ServiceError {
  return new ServiceError('cancelled', 'the request was cancelled');
}

/** Throws `cancelled` once the caller gave up, so nothing is done for a request nobody waits for. */
export function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw cancelledError();
}
