import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-textarea/index.js';
import type { HostToWebview } from '../src/contract/messages';
import { el } from './dom';
import { onHostMessage, postToHost } from './vscodeApi';
import { ComposerView } from './views/composer';
import { HeaderView } from './views/header';
import { ThreadView } from './views/threadView';
import { terminalPanes } from './views/terminalView';
import { ChangesBar } from './views/changesBar';
import { reviewStore } from './reviewStore';
import { TabsBar } from './views/tabsBar';
import { conversationStore } from './conversationStore';
import { ComposerBar } from './views/composerBar';
import { PermissionsPanel } from './views/permissionsView';
import { PlanStrip } from './views/planStrip';
import { listenForCodeCopies } from './codeCopy';

const root = document.getElementById('tandem-root') as HTMLElement;
const header = new HeaderView();
const threadElement = el('main', { class: 'thread', id: 'thread', 'aria-label': 'Conversation' });
const thread = new ThreadView(threadElement);
const composer = new ComposerView();
const tabsBar = new TabsBar();
const changesBar = new ChangesBar();
const planStrip = new PlanStrip();
const permissionsPanel = new PermissionsPanel();
const composerBar = new ComposerBar(() => composerBar.setPermissionsOpen(permissionsPanel.toggle()));
composer.toolbar.append(composerBar.element);
listenForCodeCopies(threadElement, postToHost);
root.append(tabsBar.element, header.element, threadElement, planStrip.element, changesBar.element, permissionsPanel.element, composer.element);
reviewStore.subscribe(() => {
  changesBar.render(reviewStore.view);
  thread.refreshDiffCards();
});

function handle(message: HostToWebview): void {
  switch (message.type) {
    case 'snapshot':
      header.setAgents(message.state.agents, message.state.selectedAgentId);
      header.setConnection(message.state.connection);
      composer.setRunning(message.state.turn.running);
      composer.setQueue(message.state.queue);
      tabsBar.render(message.state.tabs);
      terminalPanes.reset(message.state.terminals);
      thread.reset(message.state.entries);
      planStrip.reset(message.state.entries);
      reviewStore.set(message.state.review);
      return;
    case 'threadDeltas':
      thread.apply(message.deltas);
      planStrip.apply(message.deltas);
      return;
    case 'connectionChanged':
      header.setConnection(message.connection);
      return;
    case 'turnChanged':
      composer.setRunning(message.turn.running);
      return;
    case 'queueChanged':
      composer.setQueue(message.queue);
      return;
    case 'agentsChanged':
      header.setAgents(message.agents, message.selectedAgentId);
      return;
    case 'tabsChanged':
      tabsBar.render(message.tabs);
      return;
    case 'historyChanged':
      tabsBar.renderHistory(message.history);
      return;
    case 'reviewChanged':
      reviewStore.set(message.review);
      return;
    case 'terminalDeltas':
      terminalPanes.apply(message.changed, message.output);
      return;
    case 'conversationChanged':
      conversationStore.set(message.conversation);
      return;
    case 'permissionsChanged':
      conversationStore.setPermissions(message.permissions);
      return;
    case 'mentionCandidates':
      composer.mentionCandidates(message.requestId, message.items);
      return;
  }
}

onHostMessage(handle);
postToHost({ type: 'ready' });
