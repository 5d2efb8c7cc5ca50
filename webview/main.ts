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
import { terminalPanes } from './views/terminalView';
import { ChangesBar } from './views/changesBar';
import { reviewStore } from './reviewStore';

const root = document.getElementById('tandem-root') as HTMLElement;
const header = new HeaderView();
const threadElement = el('main', { class: 'thread', id: 'thread', 'aria-label': 'Conversation' });
const thread = new ThreadView(threadElement);
const composer = new ComposerView();
const title = el('div', { class: 'session-title', id: 'session-title', hidden: '' });
const changesBar = new ChangesBar();
root.append(header.element, title, threadElement, changesBar.element, composer.element);
reviewStore.subscribe(() => {
  changesBar.render(reviewStore.view);
  thread.refreshDiffCards();
});

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
      terminalPanes.reset(message.state.terminals);
      thread.reset(message.state.entries);
      reviewStore.set(message.state.review);
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
    case 'reviewChanged':
      reviewStore.set(message.review);
      return;
    case 'terminalDeltas':
      terminalPanes.apply(message.changed, message.output);
      return;
  }
}

onHostMessage(handle);
postToHost({ type: 'ready' });
