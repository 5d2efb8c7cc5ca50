/**
 * The slash commands each agent listed when it last ran, so that "/" completes before the agent
 * of a new conversation has started (the agent starts with the first message). The agent's own
 * list replaces them as soon as it sends one. Kept in the editor's storage, bounded.
 */
import type { CommandView } from '../contract/conversationView';
import type { RecordStore } from '../permissions/recordStore';

export interface RememberedCommandsRecord {
  agentId: string;
  commands: CommandView[];
}

/** Agents remembered at most (the least recently updated go first), and commands and characters kept per agent. */
const MAX_AGENTS = 50;
const MAX_COMMANDS = 200;
const MAX_TEXT = 300;

export function isRememberedCommandsRecord(value: unknown): value is RememberedCommandsRecord {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Partial<RememberedCommandsRecord>;
  return typeof record.agentId === 'string' && Array.isArray(record.commands) && record.commands.every((command: unknown) => {
    const view = command as Partial<CommandView> | null;
    return typeof view?.name === 'string' && typeof view.description === 'string' && (view.inputHint === null || typeof view.inputHint === 'string');
  });
}

const bounded = (text: string) => text.slice(0, MAX_TEXT);

export class RememberedCommands {
  constructor(private readonly store: RecordStore<RememberedCommandsRecord>) {}

  /** What `agentId` listed last time; empty when it never ran here or listed none. */
  of(agentId: string): CommandView[] {
    return this.store.load().find((record) => record.agentId === agentId)?.commands ?? [];
  }

  /** The agent's own list, kept for next time. The same list again writes nothing. */
  remember(agentId: string, commands: readonly CommandView[]): void {
    const kept = commands.slice(0, MAX_COMMANDS).map((command) => ({ name: bounded(command.name), description: bounded(command.description), inputHint: command.inputHint === null ? null : bounded(command.inputHint) }));
    const records = this.store.load();
    if (JSON.stringify(records.find((record) => record.agentId === agentId)?.commands) === JSON.stringify(kept)) return;
    const others = records.filter((record) => record.agentId !== agentId);
    this.store.save([...others.slice(-(MAX_AGENTS - 1)), { agentId, commands: kept }]);
  }
}
