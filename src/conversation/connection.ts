/**
 * The connection to the agent and the turn, as the conversation keeps them and the panel shows them.
 * Plain data: src/contract publishes it to the webview.
 */
import type { StartupView } from './startup';

export type ConnectionPhase =
  | 'idle'          // no agent started yet
  | 'starting'      // spawning, initialize, session/new
  | 'ready'         // session open
  | 'exited'        // the agent process ended (crash or exit)
  | 'failed'        // could not start (not installed, handshake error)
  | 'restricted'    // Restricted Mode: agents are not spawned
  | 'signInRequired'; // the agent answered "authentication required": sign-in methods are offered

export interface ConnectionView {
  phase: ConnectionPhase;
  /** One clear sentence for the user when something is wrong or going on. */
  message: string | null;
  agentName: string | null;
  /** With phase `signInRequired`: the ways to sign in the agent offers. */
  signIn?: SignInMethodView[];
  /** With phase `failed` because the agent's program was not found: the command that installs it, where known. */
  notInstalled?: { installCommand: string | null };
  /** While starting, and when a start or the agent failed: the stages, the log tail and a report. */
  startup?: StartupView;
}

/** A way to sign in that the agent offers after it answered "authentication required". */
export interface SignInMethodView {
  methodId: string;
  name: string;
  description: string | null;
  /** 'terminal': Tandem runs a login command in a terminal; 'agent': the agent signs in itself; 'apiKey': Tandem asks for a key and keeps it in the editor's secret storage. */
  kind: 'terminal' | 'agent' | 'apiKey';
}

export interface TurnView {
  running: boolean;
}
