import type { ElicitationFieldView, ElicitationValue, ElicitationView } from '../../src/contract/elicitationView';
import { button, el, icon } from '../dom';
import { assertNever } from '../../src/util/assertNever';
import { visibleLines, visibleText } from '../../src/contract/consentText';
import type { PostToHost } from '../vscodeApi';

const stateLabels = { accepted: 'Answered', declined: 'Declined', cancelled: 'Cancelled', completed: 'Done' } as const;

type Reader = () => ElicitationValue | undefined;

interface FieldControl {
  control: HTMLElement;
  read: Reader;
}

type FieldOf<K extends ElicitationFieldView['kind']> = Extract<ElicitationFieldView, { kind: K }>;

const textInputTypes = { email: 'email', uri: 'url', date: 'date', 'date-time': 'datetime-local' } as const;

function textControl(field: FieldOf<'text'>, id: string): FieldControl {
  const type = field.format ? textInputTypes[field.format] : 'text';
  const input = el('input', { id, type, class: 'form-input' });
  if (field.defaultValue) input.value = field.defaultValue;
  if (field.maxLength !== null) input.maxLength = field.maxLength;
  if (field.required) input.required = true;
  // The local time the picker shows goes back as the instant it means.
  return { control: input, read: () => (type === 'datetime-local' && input.value ? new Date(input.value).toISOString() : input.value) };
}

function numberControl(field: FieldOf<'number'>, id: string): FieldControl {
  const input = el('input', { id, type: 'number', class: 'form-input', step: field.integer ? '1' : 'any' });
  if (field.minimum !== null) input.min = String(field.minimum);
  if (field.maximum !== null) input.max = String(field.maximum);
  if (field.defaultValue !== null) input.value = String(field.defaultValue);
  return { control: input, read: () => (input.value === '' ? undefined : Number(input.value)) };
}

function booleanControl(field: FieldOf<'boolean'>, id: string): FieldControl {
  const input = el('input', { id, type: 'checkbox', class: 'form-checkbox' });
  input.checked = field.defaultValue;
  return { control: input, read: () => input.checked };
}

function selectControl(field: FieldOf<'select'>, id: string): FieldControl {
  const select = el('select', { id, class: 'form-input' }, el('option', { value: '' }, field.required ? 'Choose…' : '(none)'),
    ...field.options.map((option) => el('option', { value: option.value, title: option.description ?? '' }, option.label)));
  if (field.defaultValue) select.value = field.defaultValue;
  return { control: select, read: () => select.value };
}

function multiSelectControl(field: FieldOf<'multiSelect'>, id: string): FieldControl {
  const boxes = field.options.map((option) => {
    const box = el('input', { type: 'checkbox', value: option.value, class: 'form-checkbox' });
    box.checked = field.defaultValue.includes(option.value);
    return { box, row: el('label', { class: 'form-choice', title: option.description ?? '' }, box, ` ${option.label}`) };
  });
  return { control: el('div', { id, class: 'form-choices', role: 'group' }, ...boxes.map((item) => item.row)), read: () => boxes.filter((item) => item.box.checked).map((item) => item.box.value) };
}

function fieldControl(field: ElicitationFieldView, id: string): FieldControl {
  switch (field.kind) {
    case 'text':
      return textControl(field, id);
    case 'number':
      return numberControl(field, id);
    case 'boolean':
      return booleanControl(field, id);
    case 'select':
      return selectControl(field, id);
    case 'multiSelect':
      return multiSelectControl(field, id);
    default:
      return assertNever(field, 'elicitation field');
  }
}

/** Decline and Cancel, the same for both kinds of question. */
function refusalButtons(view: ElicitationView, post: PostToHost): HTMLElement[] {
  const refuse = (action: 'decline' | 'cancel') => post({ type: 'answerElicitation', requestId: view.requestId, action, values: {} });
  return [button('Decline', { secondary: true, onClick: () => refuse('decline') }), button('Cancel', { secondary: true, onClick: () => refuse('cancel') })];
}

/** The address is shown in full, its host in bold, before anything opens. */
function urlQuestion(view: ElicitationView, post: PostToHost): HTMLElement[] {
  const address = el('div', { class: 'elicitation-url' }, el('div', {}, 'Opens ', el('strong', {}, view.host ?? 'an address that could not be read')), el('code', { class: 'url-full' }, visibleText(view.url ?? '')));
  if (view.state !== 'open') return [address];
  const openInBrowser = button('Open in browser', { icon: 'link-external', onClick: () => {
    if (view.url) post({ type: 'openLink', href: view.url });
    post({ type: 'answerElicitation', requestId: view.requestId, action: 'accept', values: {} });
  } });
  return [address, el('div', { class: 'form-actions' }, openInBrowser, ...refusalButtons(view, post))];
}

function formQuestion(view: ElicitationView, post: PostToHost): HTMLElement {
  const open = view.state === 'open';
  const readers = new Map<string, Reader>();
  const form = el('form', { class: 'elicitation-form', novalidate: '' });
  view.fields.forEach((field, index) => {
    const id = `${view.requestId}-f${index}`;
    const { control, read } = fieldControl(field, id);
    readers.set(field.name, read);
    if (!open) control.setAttribute('disabled', '');
    const error = view.errors[field.name];
    form.append(el('div', { class: `form-field kind-${field.kind}${error ? ' invalid' : ''}`, 'data-field': field.name },
      el('label', { for: id, class: 'form-label' }, field.title, field.required ? el('span', { class: 'required', 'aria-label': 'required' }, ' *') : null),
      control,
      field.description ? el('div', { class: 'form-help' }, field.description) : null,
      error ? el('div', { class: 'form-error', role: 'alert' }, error) : null));
  });
  const submit = () => {
    const values: Record<string, ElicitationValue> = {};
    for (const [name, read] of readers) {
      const value = read();
      if (value !== undefined) values[name] = value;
    }
    post({ type: 'answerElicitation', requestId: view.requestId, action: 'accept', values });
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    submit();
  });
  if (open) form.append(el('div', { class: 'form-actions' }, button('Submit', { icon: 'check', onClick: submit }), ...refusalButtons(view, post)));
  return form;
}

/** The agent's question as a form (or a link) in the thread; the host validates what comes back. */
export function renderElicitation(view: ElicitationView, post: PostToHost): HTMLElement {
  const open = view.state === 'open';
  const card = el('article', { class: `elicitation state-${view.state}`, 'data-request-id': view.requestId, 'aria-label': 'The agent asks for information' },
    el('div', { class: 'elicitation-header' }, icon(view.mode === 'url' ? 'link-external' : 'question'), ` ${view.title === null ? 'The agent asks' : visibleText(view.title)}`,
      open ? null : el('span', { class: 'elicitation-state' }, stateLabels[view.state as keyof typeof stateLabels])),
    // The agent's own words, where it asks for a yes: nothing hidden, reordered or pushed out of view.
    el('p', { class: 'elicitation-message' }, visibleLines(view.message)));
  if (view.mode === 'url') card.append(...urlQuestion(view, post));
  else card.append(formQuestion(view, post));
  return card;
}
