import type * as acp from '@agentclientprotocol/sdk';
import { findExecutable } from '../acp/commandLookup';
import type { AgentDefinition } from '../agents/agentConfig';
import type { ConnectionPhase, ConnectionView } from './connection';
import { type Logger } from '../util/logger';
import { errorMessage } from '../redaction/redactedLog';
import type { SessionEnvironment } from './sessionEnvironment';
import { apiKeyVariable, loginCommand, signInMethods, type LoginCommand, type SignInRunner } from './signIn';

/** A prompt's text and the notes sent ahead of it; one the agent refused is retried after sign-in. */
export interface PromptText {
  text: string;
  notes: readonly string[];
}

/** What the sign-in flow drives: the conversation's connection state and its agent. */
export interface SignInConversation {
  connectionPhase(): ConnectionPhase;
  show(state: ConnectionView): void;
  stopAgent(): Promise<void>;
  start(): Promise<boolean>;
  retry(prompt: PromptText): Promise<void>;
}

/**
 * Signing in when the agent asks for it: the agent stops, the user picks one of its methods
 * (an API key Tandem keeps, a login program in a terminal, or one the agent handles itself),
 * the agent starts again and a prompt it refused is sent once more.
 */
export class SignInFlow {
  /** Set while the agent waits for the user to sign in. */
  private waiting: { methods: acp.AuthMethod[]; refused: PromptText | null } | null = null;
  /** An agent-handled auth method the user picked, sent with `authenticate` on the next start. */
  private chosenAgentAuth: string | null = null;

  constructor(
    private readonly agent: AgentDefinition,
    /** `cwd`: where a login program runs (the conversation's folder). */
    private readonly environment: Pick<SessionEnvironment, 'signIn' | 'apiKeys'> & { cwd: string | null },
    private readonly log: Logger,
    private readonly conversation: SignInConversation,
  ) {}

  get agentAuth(): string | null {
    return this.chosenAgentAuth;
  }

  /** The agent accepted the chosen method: the next start does not send it again. */
  agentAuthSent(): void {
    this.chosenAgentAuth = null;
  }

  /** The agent answered "authentication required": stop it and offer `methods`, its ways to sign in. */
  async require(methods: readonly acp.AuthMethod[], refused: PromptText | null): Promise<void> {
    const views = signInMethods(methods, this.environment.signIn !== undefined);
    await this.conversation.stopAgent();
    if (views.length === 0) {
      this.show({ phase: 'failed', message: `${this.agent.label} needs you to sign in and offers no way to do it from Tandem: sign in outside the editor, then try again.` });
      return;
    }
    this.waiting = { methods: [...methods], refused };
    this.show({ phase: 'signInRequired', message: `${this.agent.label} needs you to sign in.`, signIn: views });
  }

  /** The user chose a way to sign in: do it, reconnect, retry the refused prompt. */
  async signIn(methodId: string): Promise<boolean> {
    const waiting = this.waiting;
    const method = waiting?.methods.find((candidate) => candidate.id === methodId);
    if (!waiting || !method || this.conversation.connectionPhase() !== 'signInRequired') return false;
    if (!(await this.authorize(method, waiting.methods))) return false;
    this.waiting = null;
    const ready = await this.conversation.start();
    if (ready && waiting.refused) await this.conversation.retry(waiting.refused);
    return ready;
  }

  /** What `method` needs before the agent starts again; false when the user did not finish it. */
  private async authorize(method: acp.AuthMethod, methods: readonly acp.AuthMethod[]): Promise<boolean> {
    const variable = apiKeyVariable(method);
    const { apiKeys, signIn } = this.environment;
    if (variable && apiKeys) {
      const key = await apiKeys.ask(this.agent.id, this.agent.label, method.name, variable);
      if (!key) return false;
      this.chosenAgentAuth = method.id;
      return true;
    }
    const login = this.login(method);
    if (login && signIn) return this.runLogin(login, signIn, methods);
    this.chosenAgentAuth = method.id;
    return true;
  }

  private login(method: acp.AuthMethod): LoginCommand | null {
    const cwd = this.environment.cwd ?? process.cwd();
    const command = findExecutable(this.agent.command, this.agent.env.PATH ?? process.env.PATH, cwd) ?? this.agent.command;
    return loginCommand(method, { command, args: this.agent.args, env: this.agent.env, cwd });
  }

  private async runLogin(login: LoginCommand, runner: SignInRunner, methods: readonly acp.AuthMethod[]): Promise<boolean> {
    this.show({ phase: 'starting', message: `Finish signing in in the terminal "${login.label}": Tandem reconnects when it ends.` });
    const result = await runner.runLogin(login).catch((error: unknown) => {
      this.log.error(`sign-in with ${login.command} failed: ${errorMessage(error)}`);
      return { exitCode: null };
    });
    if (result.exitCode === 0) return true;
    const why = result.exitCode === null ? 'the terminal closed first' : `exit code ${result.exitCode}`;
    this.show({ phase: 'signInRequired', message: `Sign-in did not finish (${why}). Try again.`, signIn: signInMethods(methods, true) });
    return false;
  }

  private show(state: Omit<ConnectionView, 'agentName'>): void {
    this.conversation.show({ ...state, agentName: this.agent.label });
  }
}
