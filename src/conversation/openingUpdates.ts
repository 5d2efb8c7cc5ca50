import type * as acp from '@agentclientprotocol/sdk';
import type { Frame } from '../wire/frame';
import type { ThreadModel } from '../thread/threadModel';
import type { Logger } from '../util/logger';
import { redactSecrets } from '../redaction/secrets';

/** More than any real agent sends before answering `session/new`; past it the oldest are dropped, and the log says so. */
const MAX_HELD = 10_000;

/**
 * Updates that arrive while a session is opening, before its id is known: agents send commands,
 * titles and even text for a new session before answering `session/new`. They are held and
 * applied, in order, the moment the answer names the session; those of other sessions are
 * dropped then.
 */
export class OpeningUpdates {
  private held: acp.SessionNotification[] = [];
  private dropped = 0;

  constructor(private readonly log: Logger) {}

  hold(notification: acp.SessionNotification): void {
    if (this.held.length >= MAX_HELD) {
      this.held.shift();
      this.dropped++;
    }
    this.held.push(notification);
  }

  /** The held updates of `sessionId`, in the order they came; the buffer is empty after. */
  release(sessionId: string): acp.SessionUpdate[] {
    const mine = this.held.filter((notification) => notification.sessionId === sessionId).map((notification) => notification.update);
    if (this.dropped > 0) this.log.warn(`${this.dropped} updates that arrived while the session opened were dropped (over ${MAX_HELD})`);
    this.clear();
    return mine;
  }

  clear(): void {
    this.held = [];
    this.dropped = 0;
  }
}

/**
 * Agents must write nothing but JSON-RPC on stdout (their log goes to stderr). A line that
 * cannot be a message while the session opens (a banner, a warning printed to stdout: what
 * leaves other clients "stuck on loading") is named once in the thread; any such line is
 * logged, and the traffic log shows it. The connection carries on.
 */
export function nonProtocolOutputCheck(agentLabel: string, thread: ThreadModel, log: Logger, opening: () => boolean): (frame: Frame) => void {
  let noticed = false;
  return (frame) => {
    if (frame.direction !== 'in' || frame.text.trimStart().startsWith('{')) return;
    const text = redactSecrets(frame.text);
    if (noticed || !opening()) {
      log.warn(`non-JSON line on the agent's stdout: ${text.slice(0, 500)}`);
      return;
    }
    noticed = true;
    const line = text.length > 120 ? `${text.slice(0, 120)}…` : text;
    log.warn(`non-JSON line on the agent's stdout: ${text.slice(0, 500)}`);
    thread.addNotice('warning', `${agentLabel} wrote a line that is not an ACP message on its output ("${line}"); Tandem skipped it. Agents log to stderr: see Show Traffic.`, ['showTraffic']);
  };
}
