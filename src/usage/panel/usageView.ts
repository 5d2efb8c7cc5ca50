import type * as acp from '@agentclientprotocol/sdk';
import type { CommandView, UsageView } from '../../contract/conversationView';
import type { SessionFacts } from '../../thread/threadModel';
import { turnTokens } from '../turnTokens';

/** The meter turns to the warning colour here, and to the error colour when the window is full. */
export const USAGE_WARNING_PERCENT = 85;

type TurnUsageView = Extract<UsageView, { kind: 'turn' }>;

/** Token counts of one turn from a prompt answer, as the meter shows them (see turnTokens). */
export function turnUsage(response: acp.PromptResponse | null): TurnUsageView | null {
  const tokens = turnTokens(response);
  return tokens ? { kind: 'turn', ...tokens } : null;
}

/** The context meter from `usage_update`; without one, what the last prompt answer reported (never a made-up percentage). */
export function usageView(usage: SessionFacts['usage'], lastResponse: acp.PromptResponse | null): UsageView | null {
  if (usage && usage.size > 0) {
    const percent = Math.min(100, Math.max(0, (usage.used / usage.size) * 100));
    const level = usage.used >= usage.size ? 'full' : percent >= USAGE_WARNING_PERCENT ? 'warning' : 'normal';
    return { kind: 'context', used: usage.used, size: usage.size, percent, level, cost: usage.cost };
  }
  return turnUsage(lastResponse);
}

export function commandViews(commands: readonly acp.AvailableCommand[]): CommandView[] {
  return commands.slice(0, 500).map((command) => ({
    name: command.name,
    description: command.description,
    inputHint: command.input && 'hint' in command.input ? command.input.hint : null,
  }));
}
