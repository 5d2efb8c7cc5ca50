import type { HostToInspector } from '../../src/contract/inspectorView';
import { assertNever } from '../../src/util/assertNever';
import { el } from '../dom';
import { DetailPane } from './detailPane';
import { FilterBar } from './filterBar';
import { FrameList } from './frameList';
import { connectInspector } from './inspectorHost';

function action(label: string, title: string, onClick: () => void): HTMLButtonElement {
  const node = el('button', { type: 'button', title }, label);
  node.addEventListener('click', onClick);
  return node;
}

/** Builds the frame inspector once per document: list, filters and details over one channel to the host. */
function startInspector(): void {
  const root = document.getElementById('inspector-root') as HTMLElement;
  const title = el('h1', { class: 'inspector-title' });
  const note = el('p', { class: 'inspector-note' });
  let total = 0;
  let selected: number | null = null;
  const post = connectInspector((message) => handle(message));
  const list = new FrameList((index) => {
    selected = index;
    post({ type: 'select', index });
  });
  const details = new DetailPane({
    showInThread: (toolCallId) => post({ type: 'showInThread', toolCallId }),
    showToolCall: (toolCallId) => filters.showToolCall(toolCallId),
    select: (index) => list.select(index),
  });
  const filters = new FilterBar((filter) => post({ type: 'filter', filter }), [
    action('Refresh', 'Read the frames again, with those that arrived since', () => post({ type: 'refresh' })),
    action('Fidelity report', 'What the agent declared, did and asked, from this traffic', () => post({ type: 'showReport' })),
    action('Export…', 'Save these frames, redacted, as NDJSON', () => post({ type: 'export' })),
  ]);
  root.append(el('header', { class: 'inspector-header' }, title, note), filters.element, el('div', { class: 'inspector-body' }, list.element, details.element));

  function handle(message: HostToInspector): void {
    switch (message.type) {
      case 'frames':
        title.textContent = message.title;
        note.textContent = message.note ?? '';
        note.hidden = message.note === null;
        total = message.rows.length;
        filters.set(message.filter, message.methods, message.connections);
        list.reset(message.rows, message.visible);
        filters.count(list.count, total);
        if (selected === null || !list.row(selected)) details.clear();
        return;
      case 'filtered':
        filters.set(message.filter);
        list.setVisible(message.visible);
        filters.count(list.count, total);
        return;
      case 'marks':
        list.setMarks(message.marks);
        return;
      case 'detail': {
        const row = list.row(message.index);
        if (row && message.index === selected) details.show(row, message.text, message.inThread);
        return;
      }
      default:
        assertNever(message, 'inspector message');
    }
  }

  post({ type: 'ready' });
}

startInspector();
