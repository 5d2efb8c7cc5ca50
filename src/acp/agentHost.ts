import type * as acp from '@agentclientprotocol/sdk';
import * as sdk from '@agentclientprotocol/sdk';
import { AcpConnection } from './acpConnection';
import { AgentProcess } from './agentProcess';
import { type AgentLaunch } from './agentChannel';
import type { AgentChannel, AgentStarter } from './agentChannel';
import { offered, type ClientPorts, type ElicitationPort, type FsPort, type TerminalPort } from './clientPorts';
import type { FrameListener } from '../wire/frame';
import type { Logger } from '../util/logger';
import { treesTracked } from '../util/processTree';

/** One session's side of a shared agent connection. */
export interface HostedSession {
  sessionId(): string | null;
  ports: ClientPorts;
}

/** Which client services the connection offers (they are advertised once, for every session). */
export interface HostOffers {
  fs: boolean;
  terminals: boolean;
}

/**
 * One agent process and its ACP connection, serving every session of that agent in this window
 * (ACP lets one connection hold many sessions). Updates and requests are routed by their
 * sessionId to the session that holds it.
 */
export class AgentHost {
  readonly process: AgentChannel;
  readonly connection: AcpConnection;
  private readonly sessions = new Set<HostedSession>();
  private prepared: Promise<acp.InitializeResponse> | null = null;

  constructor(launch: AgentLaunch, onFrame: FrameListener, offers: HostOffers, start: AgentStarter = spawnAgent) {
    this.process = start(launch);
    this.connection = new AcpConnection(this.process, onFrame, this.router(offers));
  }

  get size(): number {
    return this.sessions.size;
  }

  attach(session: HostedSession): void {
    this.sessions.add(session);
  }

  /** True when no session is left (the caller then stops the process). */
  detach(session: HostedSession): boolean {
    this.sessions.delete(session);
    return this.sessions.size === 0;
  }

  /** initialize (and any sign-in that must precede sessions) runs once per process. */
  prepare(run: () => Promise<acp.InitializeResponse>): { response: Promise<acp.InitializeResponse>; first: boolean } {
    if (this.prepared) return { response: this.prepared, first: false };
    this.prepared = run();
    // A failed preparation (auth required, say) may be retried by the next session.
    this.prepared.catch(() => {
      this.prepared = null;
    });
    return { response: this.prepared, first: true };
  }

  private owner(sessionId: string): ClientPorts {
    const owner = this.holder(sessionId);
    if (owner) return owner.ports;
    throw sdk.RequestError.invalidParams({ sessionId }, `No open session ${sessionId} in this client.`);
  }

  private holder(sessionId: string): HostedSession | undefined {
    for (const session of this.sessions) if (session.sessionId() === sessionId) return session;
    return undefined;
  }

  /**
   * An update goes to the session that holds its id. Agents send updates for a new session before
   * `session/new` names it: those go to the sessions still opening, which hold them until it does.
   */
  private routeUpdate(notification: acp.SessionNotification): void {
    const owner = this.holder(notification.sessionId);
    if (owner) return owner.ports.sessionUpdate(notification);
    for (const session of this.sessions) if (session.sessionId() === null) session.ports.sessionUpdate(notification);
  }

  private router(offers: HostOffers): ClientPorts {
    const fs: FsPort = {
      readTextFile: (params, signal) => offered(this.owner(params.sessionId).fs, 'fs').readTextFile(params, signal),
      writeTextFile: (params, signal) => offered(this.owner(params.sessionId).fs, 'fs').writeTextFile(params, signal),
    };
    const terminals: TerminalPort = {
      create: (params, signal) => offered(this.owner(params.sessionId).terminals, 'terminal').create(params, signal),
      output: (params) => offered(this.owner(params.sessionId).terminals, 'terminal').output(params),
      waitForExit: (params, signal) => offered(this.owner(params.sessionId).terminals, 'terminal').waitForExit(params, signal),
      kill: (params) => offered(this.owner(params.sessionId).terminals, 'terminal').kill(params),
      release: (params) => offered(this.owner(params.sessionId).terminals, 'terminal').release(params),
    };
    const elicitation: ElicitationPort = {
      create: (params, signal) => {
        const sessionId = 'sessionId' in params && typeof params.sessionId === 'string' ? params.sessionId : null;
        const ports = sessionId ? this.owner(sessionId) : [...this.sessions].at(-1)?.ports;
        return offered(ports?.elicitation ?? null, 'elicitation').create(params, signal);
      },
      complete: (params) => {
        for (const session of this.sessions) session.ports.elicitation?.complete(params);
      },
    };
    return {
      sessionUpdate: (notification) => this.routeUpdate(notification),
      requestPermission: (params, signal) => this.owner(params.sessionId).requestPermission(params, signal),
      fs: offers.fs ? fs : null,
      terminals: offers.terminals ? terminals : null,
      elicitation,
    };
  }
}

/** Agent hosts of this window, one per agent configuration and folder. */
export class AgentHostPool {
  private readonly hosts = new Map<string, AgentHost>();

  /** A running host whose connection still works: one that failed is being stopped by its sessions. */
  find(key: string): AgentHost | undefined {
    const host = this.hosts.get(key);
    return host?.process.running && !host.connection.failure ? host : undefined;
  }

  add(key: string, host: AgentHost): void {
    this.hosts.set(key, host);
    void host.process.exited.then(() => {
      if (this.hosts.get(key) === host) this.hosts.delete(key);
    });
  }

  remove(host: AgentHost): void {
    for (const [key, candidate] of this.hosts) if (candidate === host) this.hosts.delete(key);
  }
}

/** The running host for this launch from the pool, or a newly spawned one (added to the pool). */
export function hostFor(launch: AgentLaunch, options: { pool: AgentHostPool | undefined; offers: HostOffers; onFrame: FrameListener; log: Logger; label: string; start?: AgentStarter }): AgentHost {
  const key = hostKey(launch);
  const running = options.pool?.find(key);
  if (running) {
    options.log.info(`sharing the running ${options.label} process (pid ${running.process.pid}) with ${running.size} other session(s)`);
    return running;
  }
  options.log.info(`spawning ${launch.command} ${launch.args.join(' ')} in ${launch.cwd}`);
  const host = new AgentHost(launch, options.onFrame, options.offers, options.start);
  host.process.onStderrLine((line) => options.log.debug(`stderr: ${line}`));
  void host.process.priority?.then((done) => options.log.info(`${options.label} runs below the editor: ${done}`));
  if (!treesTracked && host.process.pid !== undefined) options.log.info(`${options.label}: without /proc here, a program it starts outside its process group is not ended with it`);
  options.pool?.add(key, host);
  return host;
}

function hostKey(launch: AgentLaunch): string {
  return JSON.stringify([launch.command, launch.args, launch.cwd, Object.entries(launch.env).sort(), launch.priority ?? 'normal']);
}

function spawnAgent(launch: AgentLaunch): AgentChannel {
  return new AgentProcess(launch);
}
