/**
 * How an agent's start went, stage by stage, for the panel's banner: so a start that hangs or
 * fails says where, with the agent's last log lines and a report the user can attach to a bug.
 * Plain data: src/contract publishes it to the webview.
 */

export const startupStages = ['spawned', 'initialized', 'signedIn', 'sessionReady'] as const;
export type StartupStage = (typeof startupStages)[number];

export const startupStageLabels: Record<StartupStage, string> = {
  spawned: 'Started the program',
  initialized: 'Initialize answered',
  signedIn: 'Signed in',
  sessionReady: 'Session ready',
};

export type StageStateView = 'waiting' | 'running' | 'done' | 'failed' | 'stalled';

export interface StartupStageView {
  stage: StartupStage;
  state: StageStateView;
  /** How long the stage took (done) or has waited (failed, stalled); null before it began. */
  ms: number | null;
}

export interface StartupView {
  stages: StartupStageView[];
  /** The banner's one sentence: what went wrong, without the log lines (they are under it, folded). */
  summary: string | null;
  /** The agent's last stderr lines, redacted. */
  stderrTail: string[];
  /** Everything above as text for "Copy report", redacted. */
  report: string | null;
}
