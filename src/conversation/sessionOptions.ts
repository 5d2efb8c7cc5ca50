import type * as acp from '@agentclientprotocol/sdk';
import type { ConfigChoiceView, ConfigControlView } from './configControls';
import type { SessionFacts, SessionFactsOwner } from '../thread/threadModel';
import type { LegacyModels } from '../acp/legacyModels';

/** How a picker's change reaches the agent. */
export interface SessionOptionRequests {
  /** Answers the complete option list. */
  setConfigOption(configId: string, value: string | boolean): Promise<acp.SessionConfigOption[]>;
  setMode(modeId: string): Promise<void>;
  setModel(modelId: string): Promise<void>;
}

export const LEGACY_MODE_ID = 'legacy:mode';
export const LEGACY_MODEL_ID = 'legacy:model';

/** Mode, model and thought level lead the composer bar; everything else follows in the agent's order. */
const categoryOrder = ['mode', 'model', 'thought_level', 'model_config'];

function categoryRank(category: string | null): number {
  const rank = category ? categoryOrder.indexOf(category) : -1;
  return rank < 0 ? categoryOrder.length : rank;
}

function choicesOf(option: Extract<acp.SessionConfigOption, { type: 'select' }>): ConfigChoiceView[] {
  const choices: ConfigChoiceView[] = [];
  for (const item of option.options) {
    if ('group' in item) {
      for (const choice of item.options) choices.push({ value: choice.value, name: choice.name, description: choice.description ?? null, group: item.name });
    } else {
      choices.push({ value: item.value, name: item.name, description: item.description ?? null, group: null });
    }
  }
  return choices;
}

/**
 * The session's pickers: the agent's `configOptions` when it has any, else its legacy modes and
 * models. A change shows at once (optimistic), the agent's answer replaces the state, and a
 * refusal puts the previous value back.
 */
export class SessionOptions {
  private readonly pending = new Map<string, string | boolean>();
  private modes: acp.SessionModeState | null = null;
  private models: LegacyModels | null = null;

  constructor(private readonly owner: SessionFactsOwner) {}

  private get facts(): Readonly<SessionFacts> {
    return this.owner.facts;
  }

  /** A session opened: its legacy modes and models, if the agent has them. */
  reset(modes: acp.SessionModeState | null, models: LegacyModels | null): void {
    this.pending.clear();
    this.modes = modes;
    this.models = models;
  }

  get legacyModels(): LegacyModels | null {
    return this.models;
  }

  controls(): ConfigControlView[] {
    if (this.facts.configOptions.length > 0) return this.configControls();
    const controls: ConfigControlView[] = [];
    const modes = this.modes;
    if (modes && modes.availableModes.length > 0) {
      const current = this.pending.get(LEGACY_MODE_ID) ?? this.facts.currentModeId ?? modes.currentModeId;
      controls.push({
        kind: 'select', id: LEGACY_MODE_ID, name: 'Mode', description: null, category: 'mode', source: 'mode',
        pending: this.pending.has(LEGACY_MODE_ID), currentValue: String(current),
        choices: modes.availableModes.map((mode) => ({ value: mode.id, name: mode.name, description: mode.description ?? null, group: null })),
      });
    }
    const models = this.models;
    if (models && models.availableModels.length > 0) {
      controls.push({
        kind: 'select', id: LEGACY_MODEL_ID, name: 'Model', description: null, category: 'model', source: 'model',
        pending: this.pending.has(LEGACY_MODEL_ID), currentValue: String(this.pending.get(LEGACY_MODEL_ID) ?? models.currentModelId),
        choices: models.availableModels.map((model) => ({ value: model.modelId, name: model.name, description: model.description, group: null })),
      });
    }
    return controls;
  }

  /** Whether `value` is something this picker offers (the webview is not trusted to say so). */
  accepts(optionId: string, value: string | boolean): boolean {
    const control = this.controls().find((candidate) => candidate.id === optionId);
    if (!control) return false;
    if (control.kind === 'boolean') return typeof value === 'boolean';
    return typeof value === 'string' && control.choices.some((choice) => choice.value === value);
  }

  /**
   * Sends a change. `changed` is called when the shown state moves (at once, and again when the
   * agent answers). Resolves with the agent's error message when it refused, else null.
   */
  async change(optionId: string, value: string | boolean, requests: SessionOptionRequests, changed: () => void): Promise<string | null> {
    if (!this.accepts(optionId, value)) return `"${String(value)}" is not a choice of ${optionId}.`;
    this.pending.set(optionId, value);
    changed();
    try {
      if (optionId === LEGACY_MODE_ID) {
        await requests.setMode(String(value));
        this.owner.setFact('currentModeId', String(value));
      } else if (optionId === LEGACY_MODEL_ID) {
        await requests.setModel(String(value));
        if (this.models) this.models = { ...this.models, currentModelId: String(value) };
      } else {
        this.owner.setFact('configOptions', await requests.setConfigOption(optionId, value));
      }
      return null;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    } finally {
      this.pending.delete(optionId);
      changed();
    }
  }

  private configControls(): ConfigControlView[] {
    const indexed = this.facts.configOptions.map((option, index) => ({ option, index }));
    indexed.sort((a, b) => categoryRank(a.option.category ?? null) - categoryRank(b.option.category ?? null) || a.index - b.index);
    return indexed.map(({ option }): ConfigControlView => {
      const base = {
        id: option.id, name: option.name, description: option.description ?? null, category: option.category ?? null,
        source: 'config' as const, pending: this.pending.has(option.id),
      };
      const pending = this.pending.get(option.id);
      if (option.type === 'boolean') return { ...base, kind: 'boolean', currentValue: typeof pending === 'boolean' ? pending : option.currentValue };
      return { ...base, kind: 'select', currentValue: typeof pending === 'string' ? pending : option.currentValue, choices: choicesOf(option) };
    });
  }
}
