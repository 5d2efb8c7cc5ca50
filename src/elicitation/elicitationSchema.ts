import type * as acp from '@agentclientprotocol/sdk';
import type { ChoiceView, ElicitationFieldView, ElicitationValue } from '../thread/elicitationForm';
import { assertNever } from '../util/assertNever';

type PropertySchema = acp.ElicitationPropertySchema & Record<string, unknown>;

function text(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value : null;
}

function numberOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function choices(schema: Record<string, unknown>): ChoiceView[] | null {
  if (Array.isArray(schema.oneOf)) {
    return schema.oneOf.filter((option): option is { const: string; title?: string; description?: string } => typeof option?.const === 'string')
      .map((option) => ({ value: option.const, label: option.title ?? option.const, description: text(option.description) }));
  }
  if (Array.isArray(schema.anyOf)) return choices({ oneOf: schema.anyOf });
  if (Array.isArray(schema.enum)) {
    const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
    return schema.enum.filter((value): value is string => typeof value === 'string')
      .map((value, index) => ({ value, label: typeof names[index] === 'string' ? names[index] : value, description: null }));
  }
  return null;
}

/**
 * The form fields of a requested schema (flat object of primitives, as the spec allows).
 * Properties of a kind the form cannot render are reported so the user can decline knowingly.
 */
export function formFields(schema: acp.ElicitationSchema): { fields: ElicitationFieldView[]; unsupported: string[] } {
  const required = new Set(schema.required ?? []);
  const fields: ElicitationFieldView[] = [];
  const unsupported: string[] = [];
  for (const [name, raw] of Object.entries(schema.properties ?? {})) {
    const property = raw as PropertySchema;
    const base = { name, title: text(property.title) ?? name, description: text(property.description), required: required.has(name) };
    const options = choices(property);
    switch (property.type) {
      case 'string':
        if (options) fields.push({ ...base, kind: 'select', options, defaultValue: text(property.default) });
        else {
          const format = ['email', 'uri', 'date', 'date-time'].includes(String(property.format)) ? (property.format as 'email' | 'uri' | 'date' | 'date-time') : null;
          fields.push({ ...base, kind: 'text', format, minLength: numberOrNull(property.minLength), maxLength: numberOrNull(property.maxLength), pattern: text(property.pattern), defaultValue: text(property.default) });
        }
        break;
      case 'number':
      case 'integer':
        fields.push({ ...base, kind: 'number', integer: property.type === 'integer', minimum: numberOrNull(property.minimum), maximum: numberOrNull(property.maximum), defaultValue: numberOrNull(property.default) });
        break;
      case 'boolean':
        fields.push({ ...base, kind: 'boolean', defaultValue: property.default === true });
        break;
      case 'array': {
        const itemChoices = choices((property.items ?? {}) as Record<string, unknown>);
        if (!itemChoices) {
          unsupported.push(name);
          break;
        }
        const defaults = Array.isArray(property.default) ? property.default.filter((value): value is string => typeof value === 'string') : [];
        fields.push({ ...base, kind: 'multiSelect', options: itemChoices, minItems: numberOrNull(property.minItems), maxItems: numberOrNull(property.maxItems), defaultValue: defaults });
        break;
      }
      default:
        unsupported.push(name);
    }
  }
  return { fields, unsupported };
}

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function formatProblem(format: string | null, value: string): string | null {
  if (format === 'email' && !emailPattern.test(value)) return 'Enter an email address.';
  if (format === 'uri') {
    try {
      new URL(value);
    } catch {
      return 'Enter a full address, such as https://example.com.';
    }
  }
  if (format === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(value)) return 'Enter a date as YYYY-MM-DD.';
  if (format === 'date-time' && Number.isNaN(Date.parse(value))) return 'Enter a date and time.';
  return null;
}

type FieldOf<K extends ElicitationFieldView['kind']> = Extract<ElicitationFieldView, { kind: K }>;

/** One field's checked value, or why it was refused. */
type Checked = { value: ElicitationValue } | { error: string };

function textProblem(field: FieldOf<'text'>, value: string): string | null {
  if (field.minLength !== null && value.length < field.minLength) return `At least ${field.minLength} characters.`;
  if (field.maxLength !== null && value.length > field.maxLength) return `At most ${field.maxLength} characters.`;
  if (field.pattern !== null && !safeTest(field.pattern, value)) return 'Does not have the expected form.';
  return null;
}

function checkText(field: FieldOf<'text'>, value: unknown): Checked {
  if (typeof value !== 'string') return { error: 'Enter text.' };
  const problem = formatProblem(field.format, value) ?? textProblem(field, value);
  return problem ? { error: problem } : { value };
}

function checkNumber(field: FieldOf<'number'>, value: unknown): Checked {
  const number = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(number) || (field.integer && !Number.isInteger(number))) return { error: field.integer ? 'Enter a whole number.' : 'Enter a number.' };
  if (field.minimum !== null && number < field.minimum) return { error: `At least ${field.minimum}.` };
  if (field.maximum !== null && number > field.maximum) return { error: `At most ${field.maximum}.` };
  return { value: number };
}

function checkSelect(field: FieldOf<'select'>, value: unknown): Checked {
  return typeof value === 'string' && field.options.some((option) => option.value === value) ? { value } : { error: 'Choose one of the options.' };
}

function checkMultiSelect(field: FieldOf<'multiSelect'>, value: unknown): Checked {
  const picked = Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
  if (picked.some((item) => !field.options.some((option) => option.value === item))) return { error: 'Choose from the options.' };
  if (field.minItems !== null && picked.length < field.minItems) return { error: `Choose at least ${field.minItems}.` };
  if (field.maxItems !== null && picked.length > field.maxItems) return { error: `Choose at most ${field.maxItems}.` };
  return { value: picked };
}

function checkField(field: ElicitationFieldView, value: unknown): Checked {
  switch (field.kind) {
    case 'text':
      return checkText(field, value);
    case 'number':
      return checkNumber(field, value);
    case 'boolean':
      return { value: value === true || value === 'true' };
    case 'select':
      return checkSelect(field, value);
    case 'multiSelect':
      return checkMultiSelect(field, value);
  }
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

/** Checks submitted values against the fields; returns the cleaned content or the problems. */
export function validateAnswer(fields: readonly ElicitationFieldView[], values: Record<string, unknown>): { content: Record<string, ElicitationValue> } | { errors: Record<string, string> } {
  const content: Record<string, ElicitationValue> = {};
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const value = values[field.name];
    if (isEmpty(value)) {
      // An unticked box is an answer (false), never a missing one.
      if (field.kind === 'boolean') content[field.name] = false;
      else if (field.required) errors[field.name] = 'Required.';
      continue;
    }
    const checked = checkField(field, value);
    if ('error' in checked) errors[field.name] = checked.error;
    else content[field.name] = checked.value;
  }
  return Object.keys(errors).length > 0 ? { errors } : { content };
}

/** The fields showing what the user entered: a form shown again with its problems keeps every answer. */
export function withEntered(fields: readonly ElicitationFieldView[], values: Record<string, unknown>): ElicitationFieldView[] {
  return fields.map((field): ElicitationFieldView => {
    const value = values[field.name];
    switch (field.kind) {
      case 'text':
      case 'select':
        return typeof value === 'string' ? { ...field, defaultValue: value } : field;
      case 'number':
        return numberOrNull(value) === null ? field : { ...field, defaultValue: value as number };
      case 'boolean':
        return typeof value === 'boolean' ? { ...field, defaultValue: value } : field;
      case 'multiSelect':
        return Array.isArray(value) ? { ...field, defaultValue: value.filter((item): item is string => typeof item === 'string') } : field;
      default:
        return assertNever(field, 'elicitation field');
    }
  });
}

function safeTest(pattern: string, value: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(value);
  } catch {
    return true;
  }
}
