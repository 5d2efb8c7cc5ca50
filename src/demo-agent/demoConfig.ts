import * as acp from '@agentclientprotocol/sdk';

/**
 * The demo agent's session config: two scripted "models" that word their answers differently
 * (and bill differently, for the usage meter), and two modes that decide whether it asks before
 * it changes a file.
 */

export type ModelId = 'guide' | 'terse';
export type ModeId = 'ask' | 'auto';

export interface DemoConfig {
  model: ModelId;
  mode: ModeId;
}

export const DEFAULT_CONFIG: DemoConfig = { model: 'guide', mode: 'ask' };

interface Choice {
  name: string;
  description: string;
}

export interface ModelTraits extends Choice {
  /** The context window the usage meter measures against. */
  contextTokens: number;
  /** Pretend price, so the meter has a cost that grows. */
  dollarsPerThousandTokens: number;
}

export const MODELS: Readonly<Record<ModelId, ModelTraits>> = {
  guide: { name: 'Demo Guide', description: 'Explains what each step shows', contextTokens: 200_000, dollarsPerThousandTokens: 0.003 },
  terse: { name: 'Demo Terse', description: 'Short answers, bullet points', contextTokens: 128_000, dollarsPerThousandTokens: 0.001 },
};

const MODES: Readonly<Record<ModeId, Choice>> = {
  ask: { name: 'Ask before edits', description: 'Asks before each change to a file' },
  auto: { name: 'Edit freely', description: 'Changes files without asking; every hunk still waits for your review' },
};

function choices(table: Readonly<Record<string, Choice>>): acp.SessionConfigSelectOption[] {
  return Object.entries(table).map(([value, choice]) => ({ value, name: choice.name, description: choice.description }));
}

function isChoice<K extends string>(table: Readonly<Record<K, Choice>>, value: unknown): value is K {
  return typeof value === 'string' && Object.hasOwn(table, value);
}

/** The complete option list, as `session/new` and every `session/set_config_option` answer it. */
export function configOptions(config: DemoConfig): acp.SessionConfigOption[] {
  return [
    { id: 'mode', name: 'Mode', category: 'mode', type: 'select', currentValue: config.mode, options: choices(MODES) },
    { id: 'model', name: 'Model', category: 'model', type: 'select', currentValue: config.model, options: choices(MODELS) },
  ];
}

/** The config once `configId` is set to `value`; anything the pickers do not offer is refused. */
export function withOption(config: DemoConfig, configId: string, value: unknown): DemoConfig {
  if (configId === 'model' && isChoice(MODELS, value)) return { ...config, model: value };
  if (configId === 'mode' && isChoice(MODES, value)) return { ...config, mode: value };
  throw acp.RequestError.invalidParams({ configId, value }, `The demo agent has no ${configId} "${String(value)}".`);
}
