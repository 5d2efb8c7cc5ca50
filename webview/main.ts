import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-textarea/index.js';
import type { HostToWebview } from '../src/protocol/messages';
import { el } from './dom';
import { onHostMessage, postToHost } from './vscodeApi';
import { ComposerView } from './views/composer';
import { HeaderView } from './views/header';
import { ThreadView } from './views/threadView';

const root = document.getElementById('tandem-root') as HTMLElement;
const header = new HeaderView();
const threadElement = el('main', { class: 'thread', id: 'thread', 'aria-label': 'Conversation' });
const thread = new ThreadView(threadElement);
const composer = new ComposerView();
const title = el('div', { class: 'session-title', id: 'session-title', hidden: '' });
root.append(header.element, title, threadElement, composer.element);

function setTitle(text: string | null): void {
  title.hidden = !text;
  title.textContent = text ?? '';
}

function handle(message: HostToWebview): void {
  switch (message.type) {
    case 'snapshot':
      header.setAgents(message.state.agents, message.state.selectedAgentId);
      header.setConnection(message.state.connection);
      composer.setRunning(message.state.turn.running);
      setTitle(message.state.sessionTitle);
      thread.reset(message.state.entries);
      return;
    case 'threadDeltas':
      thread.apply(message.deltas);
      return;
    case 'connectionChanged':
      header.setConnection(message.connection);
      return;
    case 'turnChanged':
      composer.setRunning(message.turn.running);
      return;
    case 'agentsChanged':
      header.setAgents(message.agents, message.selectedAgentId);
      return;
    case 'sessionTitleChanged':
      setTitle(message.title);
      return;
    case 'focusComposer':
      composer.focus();
      return;
  }
}

onHostMessage(handle);
postToHost({ type: 'ready' });
