/** The conversation's config options as pickers: what the agent offers and the panel shows. Plain data: src/contract publishes it to the webview. */

/** Where a picker's value goes: `session/set_config_option`, legacy `session/set_mode` or `session/set_model`. */
export type ConfigSourceView = 'config' | 'mode' | 'model';

export interface ConfigChoiceView {
  value: string;
  name: string;
  description: string | null;
  /** Heading of the group the choice belongs to, for grouped selects. */
  group: string | null;
}

interface ConfigControlBase {
  id: string;
  name: string;
  description: string | null;
  /** The agent's category (`mode`, `model`, `thought_level`, ...): it decides the picker's place. */
  category: string | null;
  source: ConfigSourceView;
  /** A change was sent and the agent has not answered yet (the value shown is the optimistic one). */
  pending: boolean;
}

export type ConfigControlView =
  | (ConfigControlBase & { kind: 'select'; currentValue: string; choices: ConfigChoiceView[] })
  | (ConfigControlBase & { kind: 'boolean'; currentValue: boolean });
