import { describeProgram, programFingerprint, programSlot, type AgentIdentity, type ProjectProgram } from './projectPrograms';
import { ignoreProjectSettingsFor, listProjectPrograms, type IgnoreProjectSettings } from './projectProgramSources';
import type { RecordStore } from './recordStore';

/**
 * Nothing a project defines runs without a yes: before an agent starts in a folder, the programs
 * its files would make it run are shown, and the agent starts only when the user says yes to
 * each exact definition (or, where the agent can, starts it without the project's settings). A
 * yes is remembered per folder, agent and definition, by the editor and never in the project; a
 * changed definition (a `git pull` that brings a hook) asks again.
 */
export interface ProgramConsentRecord {
  folder: string;
  agent: string;
  fingerprint: string;
  /** Where the definition was: a later one in the same place is "changed". */
  slot: string;
  at: number;
}

export type ProgramConsentStore = RecordStore<ProgramConsentRecord>;

export interface ProgramConsentQuestion {
  agentLabel: string;
  folder: string;
  /** One line per program not yet allowed: what it is, its file, exactly what runs. */
  programs: string[];
  /** How many of them changed since the user answered for that place. */
  changed: number;
  /** What starting without the project's settings does; null where the agent has no such switch. */
  ignoreSettings: string | null;
}

/** 'start': yes to every program listed; 'withoutProjectSettings': start with the agent's switch; null: do not start. */
export type ProgramConsentAnswer = 'start' | 'withoutProjectSettings' | null;
export type ProgramConsentPrompt = (question: ProgramConsentQuestion) => Promise<ProgramConsentAnswer>;

export type ProgramConsentVerdict =
  | { start: true; ignoreSettings: IgnoreProjectSettings | null }
  | { start: false; problem: string };

/** Enough for years of answers; the oldest go first. */
const MAX_RECORDS = 2000;

/** The programs in `programs` that have no yes for this folder and agent, and how many of them replaced an answered one. */
export function unanswered(programs: readonly ProjectProgram[], records: readonly ProgramConsentRecord[], folder: string, agent: string): { programs: ProjectProgram[]; changed: number } {
  const here = records.filter((record) => record.folder === folder && record.agent === agent);
  const yes = new Set(here.map((record) => record.fingerprint));
  const answeredSlots = new Set(here.map((record) => record.slot));
  const open = programs.filter((program) => !yes.has(programFingerprint(program)));
  return { programs: open, changed: open.filter((program) => answeredSlots.has(programSlot(program))).length };
}

/** Where no one can be asked: the agent starts only in a folder whose files define no program. */
export function checkWithoutAsking(agent: AgentIdentity & { label: string }, cwd: string): Promise<ProgramConsentVerdict> {
  const refuseAll: ProgramConsentStore = { load: () => [], save: () => undefined };
  return new ProjectProgramConsent(refuseAll, () => Promise.resolve(null)).check(agent, cwd);
}

export class ProjectProgramConsent {
  /** Questions on screen, so that conversations starting together in one folder ask once. */
  private readonly asking = new Map<string, Promise<ProgramConsentAnswer>>();

  constructor(
    private readonly store: ProgramConsentStore,
    private readonly prompt: ProgramConsentPrompt,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether `agent` may start in `cwd`, asking first about the project's programs that have no yes. */
  async check(agent: AgentIdentity & { label: string }, cwd: string): Promise<ProgramConsentVerdict> {
    const open = unanswered(listProjectPrograms(agent, cwd), this.store.load(), cwd, agent.id);
    if (open.programs.length === 0) return { start: true, ignoreSettings: null };
    const ignoreSettings = ignoreProjectSettingsFor(agent);
    const question: ProgramConsentQuestion = { agentLabel: agent.label, folder: cwd, programs: open.programs.map(describeProgram), changed: open.changed, ignoreSettings: ignoreSettings?.effect ?? null };
    const answer = await this.ask(`${cwd}\n${agent.id}\n${question.programs.join('\n')}`, question);
    if (answer === 'start') {
      this.remember(open.programs.map((program) => ({ folder: cwd, agent: agent.id, fingerprint: programFingerprint(program), slot: programSlot(program), at: this.now() })));
      return { start: true, ignoreSettings: null };
    }
    if (answer === 'withoutProjectSettings' && ignoreSettings) return { start: true, ignoreSettings };
    const count = open.programs.length === 1 ? 'a program' : `${open.programs.length} programs`;
    return { start: false, problem: `${agent.label} was not started: this folder's files would make it run ${count} you have not allowed. Start it again to be asked.` };
  }

  private ask(key: string, question: ProgramConsentQuestion): Promise<ProgramConsentAnswer> {
    const open = this.asking.get(key);
    if (open) return open;
    const answered = this.prompt(question).catch(() => null).finally(() => this.asking.delete(key));
    this.asking.set(key, answered);
    return answered;
  }

  private remember(records: readonly ProgramConsentRecord[]): void {
    const fresh = new Set(records.map((record) => `${record.folder}\n${record.agent}\n${record.fingerprint}`));
    const others = this.store.load().filter((known) => !fresh.has(`${known.folder}\n${known.agent}\n${known.fingerprint}`));
    this.store.save([...others, ...records].slice(-MAX_RECORDS));
  }
}
