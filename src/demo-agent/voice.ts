import type { WorkspaceKind } from './workspaceFiles';

/** How one file of the tour ended. */
export type FileOutcomeKind = 'changed' | 'created' | 'deleted' | 'rejected' | 'unchanged' | 'missing';

export interface FileOutcome {
  /** Relative to the workspace folder. */
  file: string;
  outcome: FileOutcomeKind;
}

/** What the sample project's check printed, as far as the answer tells it. */
export interface CheckOutcome {
  /** False when the client offers no terminals. */
  ran: boolean;
  exitCode: number | null;
  /** Its last line, without colours (e.g. "All 3 rules pass."). */
  summary: string;
}

export interface TourReport {
  files: FileOutcome[];
  check: CheckOutcome | null;
}

export type TourScope = 'tour' | 'edit' | 'run';

export type TurnTopic = 'chat' | TourScope | 'plan' | 'form' | 'reset';

export interface FormAnswer {
  action: 'accept' | 'decline' | 'cancel';
  content: Record<string, unknown> | null;
}

/**
 * The wording of one scripted "model". Each answer of the demo is one of these: switching the
 * model picker switches the voice, which is the visible difference a real model switch makes.
 */
export interface Voice {
  thought(topic: TurnTopic): string;
  /** A free-form message; `listing` is null when the user declined the look at the folder. */
  chat(request: string, listing: readonly string[] | null): string;
  report(report: TourReport, scope: TourScope): string;
  plan(): string;
  form(answer: FormAnswer): string;
  /** The client offers no forms. */
  noForm(): string;
  /** `restored` lists what was put back; empty when there was nothing to do. */
  reset(restored: readonly string[], rejected: boolean): string;
  refusal(kind: Exclude<WorkspaceKind, 'sample'>): string;
}

export function filesWith(report: TourReport, ...outcomes: FileOutcomeKind[]): string[] {
  return report.files.filter((file) => outcomes.includes(file.outcome)).map((file) => file.file);
}

/** `a`, `a` and `b`, `a`, `b` and `c`: file names as code. */
export function codeList(files: readonly string[]): string {
  const quoted = files.map((file) => `\`${file}\``);
  return quoted.length <= 1 ? quoted.join('') : `${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1)}`;
}

/** The user's text quoted back, without markdown that could restyle the answer. */
export function echo(request: string): string {
  return request.replace(/[_*`[\]<>]/g, '');
}

/** The greeting /form produces from what was submitted. */
export function formGreeting(content: Record<string, unknown>): string {
  const name = typeof content.name === 'string' ? content.name : 'friend';
  const marks = '!'.repeat(typeof content.excitement === 'number' ? content.excitement : 1);
  switch (content.style) {
    case 'formal':
      return `Good day, ${name}${marks || '.'}`;
    case 'pirate':
      return `Ahoy, ${name}${marks}`;
    default:
      return `Hi ${name}${marks}`;
  }
}
