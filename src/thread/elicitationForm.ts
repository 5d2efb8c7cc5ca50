/**
 * A question the agent asks the user (`elicitation/create`), as a thread entry holds it and the panel
 * renders it. With the thread, not src/elicitation, because a ThreadEntry holds one and the
 * elicitation broker, above the thread in the order, writes it there. Plain data: src/contract
 * publishes it to the webview.
 */

interface FieldBase {
  name: string;
  title: string;
  description: string | null;
  required: boolean;
}

export interface ChoiceView {
  value: string;
  label: string;
  description: string | null;
}

export type ElicitationFieldView =
  | (FieldBase & { kind: 'text'; format: 'email' | 'uri' | 'date' | 'date-time' | null; minLength: number | null; maxLength: number | null; pattern: string | null; defaultValue: string | null })
  | (FieldBase & { kind: 'number'; integer: boolean; minimum: number | null; maximum: number | null; defaultValue: number | null })
  | (FieldBase & { kind: 'boolean'; defaultValue: boolean })
  | (FieldBase & { kind: 'select'; options: ChoiceView[]; defaultValue: string | null })
  | (FieldBase & { kind: 'multiSelect'; options: ChoiceView[]; minItems: number | null; maxItems: number | null; defaultValue: string[] });

export type ElicitationValue = string | number | boolean | string[];

export type ElicitationState = 'open' | 'accepted' | 'declined' | 'cancelled' | 'completed';

export interface ElicitationView {
  requestId: string;
  mode: 'form' | 'url';
  message: string;
  title: string | null;
  fields: ElicitationFieldView[];
  /** URL mode: the full address and its host, shown before anything opens. */
  url: string | null;
  host: string | null;
  state: ElicitationState;
  /** Per field name, why the last submitted value was refused. */
  errors: Record<string, string>;
}
