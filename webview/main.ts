import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-textarea/index.js';
import type { HostToWebview } from '../src/contract/messages';
import type { TabsView } from '../src/contract/sessionTabsView';
import type { ConnectionView } from '../src/contract/viewModel';
import { assertNever } from '../src/util/assertNever';
import { listenForCodeCopies } from './codeCopy';
import { ConversationStore } from './conversationStore';
import { DeltaAcks } from './deltaAcks';
import { el } from './dom';
import { ReviewStore } from './reviewStore';
import { connectToHost } from './vscodeApi';
import { WorkspacePaths } from './workspacePaths';
import { ChangesBar } from './views/changesBar';
import { ComposerView } from './views/composer';
import { ComposerBar } from './views/composerBar';
import { HeaderView } from './views/header';
import { PermissionFocus } from './views/permissionFocus';
import { PermissionsPanel } from './views/permissionsView';
import { PlanStrip } from './views/planStrip';
import { TabsBar } from './views/tabsBar';
import { TerminalPanes } from './views/terminalView';
import { ThreadView } from './views/threadView';
import { listenForRawToggles } from './views/toolCard';
import { revealToolCard } from './views/toolFrameLink';

/** Messages about the controls around the thread (header, tabs, composer), shown by their own switch. */
type ControlMessage = Extract<HostToWebview, {
  type: 'connectionChanged' | 'turnChanged' | 'queueChanged' | 'agentsChanged' | 'tabsChanged' | 'historyChanged' | 'conversationChanged' | 'permissionsChanged' | 'mentionCandidates';
}>;

/** Builds the panel once per document: one channel to the host, one copy of each store, handed to the views that need them. */
function startPanel(): void {
  // The page's nonce, which xterm's style elements need; the panel's one script carries it (a
  // module script has no currentScript).
  const nonce = document.querySelector<HTMLScriptElement>('script[nonce]')?.nonce ?? '';
  const host = connectToHost();
  const review = new ReviewStore();
  const conversation = new ConversationStore();
  const threadElement = el('main', { class: 'thread', id: 'thread', 'aria-label': 'Conversation' });
  const terminals = new TerminalPanes(host.post, nonce, threadElement);
  const paths = new WorkspacePaths();
  const deltaAcks = new DeltaAcks(host.post);
  const root = document.getElementById('tandem-root') as HTMLElement;
  const header = new HeaderView(host.post);
  const thread = new ThreadView(threadElement, { post: host.post, review, terminals, paths }, (message) => host.post(message));
  const composer = new ComposerView(host, conversation);
  const tabsBar = new TabsBar(host.post);
  const changesBar = new ChangesBar(host.post);
  const planStrip = new PlanStrip();
  const permissionsPanel = new PermissionsPanel(host.post, conversation);
  const composerBar = new ComposerBar(host.post, conversation, () => composerBar.setPermissionsOpen(permissionsPanel.toggle()));
  composer.toolbar.append(composerBar.element);
  listenForCodeCopies(threadElement, host.post);
  listenForRawToggles(threadElement);
  new PermissionFocus(threadElement, composer);
  root.append(tabsBar.element, header.element, threadElement, thread.jumpToLatest.element, planStrip.element, changesBar.element, permissionsPanel.element, composer.element);
  review.subscribe(() => {
    changesBar.render(review.view);
    thread.refreshDiffCards();
  });

  /** The tabs, and whether the one in front takes messages at all (a replay does not). */
  function showTabs(tabs: TabsView): void {
    tabsBar.render(tabs);
    const active = tabs.tabs.find((tab) => tab.id === tabs.activeTabId);
    header.setActiveTab(active);
    const readOnly = active?.readOnly === true;
    composer.setReadOnly(readOnly);
    composerBar.setReadOnly(readOnly);
  }

  /** The connection in the header; an agent whose program is missing takes no message until it starts. */
  function showConnection(connection: ConnectionView): void {
    header.setConnection(connection);
    composer.setUnavailable(connection.phase === 'failed' && connection.notInstalled ? `${connection.agentName ?? 'The agent'} is not installed: install it, then choose Try again.` : null);
  }

  /** What a message changes in the header, the tabs and the composer. */
  function showControls(message: ControlMessage): void {
    switch (message.type) {
      case 'connectionChanged':
        return showConnection(message.connection);
      case 'turnChanged':
        return composer.setRunning(message.turn.running);
      case 'queueChanged':
        return composer.setQueue(message.queue);
      case 'agentsChanged':
        return header.setAgents(message.agents, message.selectedAgentId);
      case 'tabsChanged':
        return showTabs(message.tabs);
      case 'historyChanged':
        return tabsBar.renderHistory(message.history);
      case 'conversationChanged':
        return conversation.set(message.conversation);
      case 'permissionsChanged':
        return conversation.setPermissions(message.permissions);
      case 'mentionCandidates':
        return composer.mentionCandidates(message.requestId, message.items);
      default:
        return assertNever(message, 'host message');
    }
  }

  // Two switches, each exhaustive: a new host message type fails to compile until one of them shows it.
  host.onMessage((message: HostToWebview) => {
    switch (message.type) {
      case 'snapshot':
        header.setAgents(message.state.agents, message.state.selectedAgentId);
        showConnection(message.state.connection);
        composer.setRunning(message.state.turn.running);
        composer.setQueue(message.state.queue);
        showTabs(message.state.tabs);
        terminals.reset(message.state.terminals);
        paths.set(message.state.workspaceRoot);
        thread.reset(message.state.entries);
        planStrip.reset(message.state.entries);
        review.set(message.state.review);
        return;
      case 'threadDeltas':
        thread.apply(message.deltas);
        planStrip.apply(message.deltas);
        return deltaAcks.batchApplied();
      case 'reviewChanged':
        return review.set(message.review);
      case 'terminalDeltas':
        return thread.refreshToolCalls(terminals.apply(message.changed, message.output));
      case 'checkpointUpdate':
        return thread.checkpointUpdate(message.update);
      case 'revealToolCall':
        return revealToolCard(threadElement, message.toolCallId);
      default:
        return showControls(message);
    }
  });
  host.post({ type: 'ready' });
}

startPanel();
