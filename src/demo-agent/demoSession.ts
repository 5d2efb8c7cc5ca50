import * as acp from '@agentclientprotocol/sdk';
import { streamText, update } from './agentKit';
import { DEFAULT_CONFIG, MODELS, type DemoConfig } from './demoConfig';

/** What the client said it serves, as far as the demo uses it. */
export interface ClientOffers {
  readFile: boolean;
  writeFile: boolean;
  terminal: boolean;
  form: boolean;
}

export function clientOffers(capabilities: acp.ClientCapabilities | undefined): ClientOffers {
  return {
    readFile: capabilities?.fs?.readTextFile === true,
    writeFile: capabilities?.fs?.writeTextFile === true,
    terminal: capabilities?.terminal === true,
    form: Boolean(capabilities?.elicitation?.form),
  };
}

/** One session: its folder, its config, and what it has done so far (the meter and /reset need it). */
export class DemoSession {
  config: DemoConfig = DEFAULT_CONFIG;
  turns = 0;
  tokensUsed = 0;
  dollarsSpent = 0;
  /** Whether a turn has announced the slash commands (one sent before the client knew the session may be lost). */
  commandsAnnounced = false;
  /** Each file's text before this session first changed it, by path (null: the session created it). */
  readonly originals = new Map<string, string | null>();

  constructor(readonly id: string, readonly cwd: string, readonly offers: ClientOffers) {}
}

/** One prompt being answered. */
export class DemoTurn {
  /** Characters streamed to the user this turn: what the pretend token count is made of. */
  private spoken = 0;
  private toolCalls = 0;

  constructor(readonly client: acp.AgentContext, readonly session: DemoSession, readonly signal: AbortSignal) {}

  get cancelled(): boolean {
    return this.signal.aborted;
  }

  /** Tool call ids are unique in the session, so cards of earlier turns are never updated by later ones. */
  nextToolCallId(prefix: string): string {
    return `${prefix}-${this.session.turns}-${++this.toolCalls}`;
  }

  /**
   * A request to the client that Stop may withdraw: 'cancelled' once the turn is stopped,
   * whether the request then failed or still got an answer.
   */
  async unlessStopped<T>(request: Promise<T>): Promise<T | 'cancelled'> {
    try {
      const answer = await request;
      return this.cancelled ? 'cancelled' : answer;
    } catch (error) {
      if (this.cancelled) return 'cancelled';
      throw error;
    }
  }

  send(sessionUpdate: acp.SessionUpdate): Promise<void> {
    return update(this.client, this.session.id, sessionUpdate);
  }

  /** Streams an answer; false when the user stopped the turn meanwhile. */
  say(text: string): Promise<boolean> {
    this.spoken += text.length;
    return streamText(this.client, this.session.id, text, { chunkSize: 6, delayMs: 12, signal: this.signal });
  }

  think(text: string): Promise<boolean> {
    this.spoken += text.length;
    return streamText(this.client, this.session.id, text, { kind: 'agent_thought_chunk', chunkSize: 8, delayMs: 15, signal: this.signal });
  }

  /** Bills the turn to the usage meter: the cost only grows, at the current model's pretend price. */
  async reportUsage(promptText: string): Promise<void> {
    const session = this.session;
    const model = MODELS[session.config.model];
    // Roughly what a real agent's turn of this length takes, so the meter visibly moves.
    const tokens = 4000 + 4 * (promptText.length + this.spoken);
    session.tokensUsed += tokens;
    session.dollarsSpent += (tokens / 1000) * model.dollarsPerThousandTokens;
    await this.send({
      sessionUpdate: 'usage_update',
      used: Math.min(session.tokensUsed, model.contextTokens),
      size: model.contextTokens,
      cost: { amount: Math.round(session.dollarsSpent * 10_000) / 10_000, currency: 'USD' },
    });
  }
}
