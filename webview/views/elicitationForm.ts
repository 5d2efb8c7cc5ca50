import type { ElicitationFieldView, ElicitationView } from '../../src/contract/elicitationView';
import { button, el, icon } from '../dom';
import { postToHost } from '../vscodeApi';

const stateLabels = { accepted: 'Answered', declined: 'Declined', cancelled: 'Cancelled', completed: 'Done' } as const;

type Reader = () => string | number | boolean | string[] | undefined;

function fieldControl(field: ElicitationFieldView, id: string): { control: HTMLElement; read: Reader } {
  switch (field.kind) {
    case 'text': {
      const type = field.format === 'email' ? 'email' : field.format === 'uri' ? 'url' : field.format === 'date' ? 'date' : field.format === 'date-time' ? 'datetime-local' : 'text';
      const input = el('input', { id, type, class: 'form-input' });
      if (field.defaultValue) input.value = field.defaultValue;
      if (field.maxLength !== null) input.maxLength = field.maxLength;
      if (field.required) input.required = true;
      return { control: input, read: () => (type === 'datetime-local' && input.value ? new Date(input.value).toISOString() : input.value) };
    }
    case 'number': {
      const input = el('input', { id, type: 'number', class: 'form-input', step: field.integer ? '1' : 'any' });
      if (field.minimum !== null) input.min = String(field.minimum);
      if (field.maximum !== null) input.max = String(field.maximum);
      if (field.defaultValue !== null) input.value = String(field.defaultValue);
      return { control: input, read: () => (input.value === '' ? undefined : Number(input.value)) };
    }
    case 'boolean': {
      const input = el('input', { id, type: 'checkbox', class: 'form-checkbox' });
      input.checked = field.defaultValue;
      return { control: input, read: () => input.checked };
    }
    case 'select': {
      const select = el('select', { id, class: 'form-input' }, el('option', { value: '' }, field.required ? 'Choose…' : '(none)'),
        ...field.options.map((option) => el('option', { value: option.value, title: option.description ?? '' }, option.label)));
      if (field.defaultValue) select.value = field.defaultValue;
      return { control: select, read: () => select.value };
    }
    case 'multiSelect': {
      const boxes = field.options.map((option) => {
        const box = el('input', { type: 'checkbox', value: option.value, class: 'form-checkbox' });
        box.checked = field.defaultValue.includes(option.value);
        return { box, row: el('label', { class: 'form-choice', title: option.description ?? '' }, box, ` ${option.label}`) };
      });
      return { control: el('div', { id, class: 'form-choices', role: 'group' }, ...boxes.map((item) => item.row)), read: () => boxes.filter((item) => item.box.checked).map((item) => item.box.value) };
    }
  }
}

/** The agent's question as a form (or a link) in the thread; the host validates what comes back. */
export function renderElicitation(view: ElicitationView): HTMLElement {
  const open = view.state === 'open';
  const card = el('article', { class: `elicitation state-${view.state}`, 'data-request-id': view.requestId, 'aria-label': 'The agent asks for information' },
    el('div', { class: 'elicitation-header' }, icon(view.mode === 'url' ? 'link-external' : 'question'), ` ${view.title ?? 'The agent asks'}`,
      open ? null : el('span', { class: 'elicitation-state' }, stateLabels[view.state as keyof typeof stateLabels])),
    el('p', { class: 'elicitation-message' }, view.message));
  if (view.mode === 'url') {
    card.append(el('div', { class: 'elicitation-url' }, el('div', {}, 'Opens ', el('strong', {}, view.host ?? 'an address that could not be read')), el('code', { class: 'url-full' }, view.url ?? '')));
    if (open) {
      card.append(el('div', { class: 'form-actions' },
        button('Open in browser', { icon: 'link-external', onClick: () => {
          if (view.url) postToHost({ type: 'openLink', href: view.url });
          postToHost({ type: 'answerElicitation', requestId: view.requestId, action: 'accept', values: {} });
        } }),
        button('Decline', { secondary: true, onClick: () => postToHost({ type: 'answerElicitation', requestId: view.requestId, action: 'decline', values: {} }) }),
        button('Cancel', { secondary: true, onClick: () => postToHost({ type: 'answerElicitation', requestId: view.requestId, action: 'cancel', values: {} }) })));
    }
    return card;
  }
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
    const values: Record<string, string | number | boolean | string[]> = {};
    for (const [name, read] of readers) {
      const value = read();
      if (value !== undefined) values[name] = value;
    }
    postToHost({ type: 'answerElicitation', requestId: view.requestId, action: 'accept', values });
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    submit();
  });
  if (open) {
    form.append(el('div', { class: 'form-actions' },
      button('Submit', { icon: 'check', onClick: submit }),
      button('Decline', { secondary: true, onClick: () => postToHost({ type: 'answerElicitation', requestId: view.requestId, action: 'decline', values: {} }) }),
      button('Cancel', { secondary: true, onClick: () => postToHost({ type: 'answerElicitation', requestId: view.requestId, action: 'cancel', values: {} }) })));
  }
  card.append(form);
  return card;
}
