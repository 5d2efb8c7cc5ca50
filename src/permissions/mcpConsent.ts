import { createHash } from 'node:crypto';
import type * as acp from '@agentclientprotocol/sdk';
import { redactValue } from '../redaction/redact';
import type { McpServerChoice, McpServerOffer, ProjectMcpServer, WithheldMcpServer } from '../agents/mcpServers';
import type { RecordStore } from './recordStore';

/**
 * Consent for MCP servers that a project's own files define (`.vscode/mcp.json`): the agent
 * starts a server the moment the session opens, before any prompt, so a cloned repository would
 * otherwise run a program of its choosing. As VS Code does for its own MCP support, the user is
 * asked once per exact definition and folder; the answer is kept by the editor, never in the
 * project, and any change to the definition asks again.
 */
export type McpConsentAnswer = 'allowed' | 'declined';

export interface McpConsentRecord {
  workspace: string;
  fingerprint: string;
  /** The server's name when answered: a later definition under the same name is "changed". */
  name: string;
  answer: McpConsentAnswer;
  at: number;
}

/** Where answers are kept: the editor's global storage. */
export type McpConsentStore = RecordStore<McpConsentRecord>;

/** What the user is shown: exactly what will run, and where it comes from. */
export interface McpConsentQuestion {
  name: string;
  source: string;
  workspace: string;
  /** The program and its arguments, or the URL the agent connects to. */
  runs: string;
  /** The environment or headers it gets, one `NAME=value` per line. */
  details: string[];
  /** The user answered for another definition of this name here: it changed since. */
  changed: boolean;
}

/** Asks the user; null when the question was dismissed (not remembered: asked again next time). */
export type McpConsentPrompt = (question: McpConsentQuestion) => Promise<McpConsentAnswer | null>;

/** Enough for years of answers; the oldest go first. */
const MAX_RECORDS = 1000;

/**
 * Identifies one definition: name, transport, and everything that decides what runs (command,
 * args in order, env by name) or what is reached (url, headers by name).
 */
export function mcpServerFingerprint(server: acp.McpServer): string {
  const sorted = (pairs: readonly { name: string; value: string }[]) => [...pairs].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).map(({ name, value }) => [name, value]);
  const canonical = 'type' in server && (server.type === 'http' || server.type === 'sse')
    ? [server.type, server.name, server.url, sorted(server.headers)]
    : ['stdio', server.name, server.command, server.args, sorted(server.env)];
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex');
}

const plainArgument = /^[\w@%+=:,./-]+$/;

/** A value as the user should see it: credentials (by their name or their shape) are not shown. */
function shown(value: string, name: string | null = null): string {
  return String(redactValue(value, name));
}

/** What will run, as shown in the question. */
export function describeMcpServer(server: acp.McpServer): Pick<McpConsentQuestion, 'runs' | 'details'> {
  if ('type' in server && (server.type === 'http' || server.type === 'sse')) {
    return { runs: `${server.type.toUpperCase()} ${shown(server.url)}`, details: server.headers.map(({ name, value }) => `${name}: ${shown(value, name)}`) };
  }
  const words = [server.command, ...server.args].map((word) => shown(plainArgument.test(word) ? word : JSON.stringify(word)));
  return { runs: words.join(' '), details: server.env.map(({ name, value }) => `${name}=${shown(value, name)}`) };
}

export interface ConsentSorting {
  allowed: ProjectMcpServer[];
  declined: ProjectMcpServer[];
  /** Servers to ask about, each with whether another definition of its name was answered here. */
  toAsk: { server: ProjectMcpServer; changed: boolean }[];
}

/** Which servers the user already answered for (this exact definition, this folder) and which to ask about. */
export function sortByConsent(servers: readonly ProjectMcpServer[], records: readonly McpConsentRecord[]): ConsentSorting {
  const sorting: ConsentSorting = { allowed: [], declined: [], toAsk: [] };
  for (const server of servers) {
    const fingerprint = mcpServerFingerprint(server.server);
    const here = records.filter((record) => record.workspace === server.workspace);
    const answer = here.find((record) => record.fingerprint === fingerprint)?.answer;
    if (answer === 'allowed') sorting.allowed.push(server);
    else if (answer === 'declined') sorting.declined.push(server);
    else sorting.toAsk.push({ server, changed: here.some((record) => record.name === server.server.name) });
  }
  return sorting;
}

/** One notice for the servers that were not passed, naming each and why. */
export function withheldServersNotice(withheld: readonly WithheldMcpServer[]): string {
  const named = withheld.map(({ name, source, why }) => `${name} (${source}, ${why === 'declined' ? 'you declined it' : 'not allowed yet'})`);
  return `MCP servers from project files were not started: ${named.join(', ')}. Tandem asks before it passes a server a project file defines; a declined one stays off until its definition changes.`;
}

const withheld = (server: McpServerChoice, why: WithheldMcpServer['why']): WithheldMcpServer => ({ name: server.server.name, source: server.source, why });

/** Asks, remembers, and turns the configured servers into what a session may pass. */
export class McpConsent {
  /** Questions on screen, so that sessions opening together ask about a definition once. */
  private readonly asking = new Map<string, Promise<McpConsentAnswer | null>>();

  constructor(
    private readonly store: McpConsentStore,
    private readonly prompt: McpConsentPrompt,
    private readonly now: () => number = Date.now,
  ) {}

  /** The user's own servers pass as they are; project servers only with a yes for their exact definition. */
  async offer(userServers: readonly McpServerChoice[], projectServers: readonly ProjectMcpServer[]): Promise<McpServerOffer> {
    const sorting = sortByConsent(projectServers, this.store.load());
    const offer: McpServerOffer = { choices: [...userServers, ...sorting.allowed], withheld: sorting.declined.map((server) => withheld(server, 'declined')) };
    // One question at a time: several modal dialogs at once cannot be read.
    for (const { server, changed } of sorting.toAsk) {
      const answer = await this.ask(server, changed);
      if (answer === 'allowed') offer.choices.push(server);
      else offer.withheld.push(withheld(server, answer ?? 'unanswered'));
    }
    return offer;
  }

  private ask(server: ProjectMcpServer, changed: boolean): Promise<McpConsentAnswer | null> {
    const fingerprint = mcpServerFingerprint(server.server);
    const key = `${server.workspace}\n${fingerprint}`;
    const open = this.asking.get(key);
    if (open) return open;
    const question: McpConsentQuestion = { name: server.server.name, source: server.source, workspace: server.workspace, changed, ...describeMcpServer(server.server) };
    const answered = this.prompt(question).catch(() => null).then((answer) => {
      this.asking.delete(key);
      if (answer) this.remember({ workspace: server.workspace, fingerprint, name: server.server.name, answer, at: this.now() });
      return answer;
    });
    this.asking.set(key, answered);
    return answered;
  }

  private remember(record: McpConsentRecord): void {
    const others = this.store.load().filter((known) => known.workspace !== record.workspace || known.fingerprint !== record.fingerprint);
    this.store.save([...others, record].slice(-MAX_RECORDS));
  }
}
