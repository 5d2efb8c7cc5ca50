import type { AgentChoiceView, ConnectionView } from '../../src/contract/viewModel';
import type { SignInMethodView } from '../../src/contract/terminalView';
import type { TabView } from '../../src/contract/sessionTabsView';
import { button, el, icon, textWithCode } from '../dom';
import type { PostToHost } from '../vscodeApi';
import { failureDetails, stageList } from './startupDetails';

const phaseLabels: Record<ConnectionView['phase'], string> = {
  idle: 'Not started',
  starting: 'Starting…',
  ready: 'Connected',
  exited: 'Stopped',
  failed: 'Not available',
  restricted: 'Restricted Mode',
  signInRequired: 'Sign-in required',
};

/** The agent picker and the connection status, plus the banner that explains a problem. */
export class HeaderView {
  readonly element: HTMLElement;
  private readonly picker: HTMLElement & { value: string };
  private readonly status: HTMLElement;
  private readonly banner: HTMLElement;
  private agentsKey = '';
  private agents: AgentChoiceView[] = [];
  private selectedId = '';
  private activeTab: TabView | undefined;

  constructor(private readonly post: PostToHost) {
    this.picker = document.createElement('vscode-single-select') as HTMLElement & { value: string };
    this.picker.id = 'agent-picker';
    this.picker.setAttribute('aria-label', 'Agent');
    // The component names its inner combobox from `label`; aria-label names only the outer element.
    this.picker.setAttribute('label', 'Agent');
    this.picker.addEventListener('change', () => post({ type: 'selectAgent', agentId: this.picker.value }));
    this.status = el('span', { class: 'connection-status', id: 'connection-status', role: 'status' });
    this.banner = el('div', { class: 'connection-banner', id: 'connection-banner', hidden: '' });
    this.element = el('div', { class: 'header-wrap' },
      el('header', { class: 'toolbar' }, this.picker, this.status),
      this.banner);
  }

  setAgents(agents: AgentChoiceView[], selectedId: string): void {
    this.agents = agents;
    this.selectedId = selectedId;
    this.renderPicker();
  }

  /** The tab in front: a replay's agent is not among the configured ones, yet the picker names it. */
  setActiveTab(tab: TabView | undefined): void {
    this.activeTab = tab;
    this.renderPicker();
  }

  private renderPicker(): void {
    const recorded = this.recordedChoice();
    const agents = this.agents.map((agent) => this.withConsequence(agent));
    const key = JSON.stringify([agents, recorded]);
    if (key !== this.agentsKey) {
      this.agentsKey = key;
      this.picker.replaceChildren(...agents.map((agent) => option(agent)), ...(recorded ? [option(recorded, true)] : []));
    }
    // New options reach the select a moment after they are put in: each says whether it is the
    // chosen one, so a value set before the select has read them is not lost.
    for (const choice of this.picker.querySelectorAll('vscode-option')) choice.toggleAttribute('selected', choice.getAttribute('value') === this.selectedId);
    this.picker.value = this.selectedId;
  }

  /**
   * A conversation with something in it keeps its agent: picking another opens a new conversation.
   * The list says so (the component shows the highlighted option's description under it, the
   * current agent's first), so the new tab is no surprise.
   */
  private withConsequence(agent: AgentChoiceView): AgentChoiceView {
    const tab = this.activeTab;
    if (!tab || tab.empty) return agent;
    const description = agent.id === tab.agentId
      ? `The agent of “${tab.title}”. Picking another agent opens a new conversation; this one stays open.`
      : `Opens a new conversation with ${agent.label}; “${tab.title}” stays open with ${tab.agentLabel}.`;
    return { ...agent, description };
  }

  /** The replayed recording's agent, shown selected and not pickable: picking a configured agent opens a new conversation. */
  private recordedChoice(): AgentChoiceView | null {
    const tab = this.activeTab;
    if (!tab?.readOnly || tab.agentId !== this.selectedId || this.agents.some((agent) => agent.id === this.selectedId)) return null;
    return { id: tab.agentId, label: tab.agentLabel, description: 'The agent of this recording. Pick another agent to open a new conversation with it.', installed: null };
  }

  setConnection(connection: ConnectionView): void {
    this.status.className = `connection-status phase-${connection.phase}`;
    this.status.replaceChildren(el('span', { class: 'status-dot', 'aria-hidden': 'true' }), phaseLabels[connection.phase]);
    this.status.title = connection.message ?? `${connection.agentName ?? 'Agent'}: ${phaseLabels[connection.phase]}`;
    document.body.dataset.connection = connection.phase;
    const content = bannerContent(connection, this.post);
    this.banner.hidden = content === null;
    if (!content) return;
    this.banner.className = `connection-banner phase-${connection.phase}`;
    this.banner.replaceChildren(...content);
  }
}

function option(agent: AgentChoiceView, disabled = false): HTMLElement {
  const element = document.createElement('vscode-option');
  element.setAttribute('value', agent.id);
  element.setAttribute('description', agent.installed === false ? `Not installed. ${agent.description}` : agent.description);
  if (disabled) element.setAttribute('disabled', '');
  element.textContent = agent.installed === false ? `${agent.label} (not installed)` : agent.label;
  return element;
}

const problemPhases: ReadonlySet<ConnectionView['phase']> = new Set(['failed', 'exited', 'restricted', 'signInRequired']);

/** What the banner holds for this state: a start's stages, a problem's sentence and actions, or nothing. */
function bannerContent(connection: ConnectionView, post: PostToHost): HTMLElement[] | null {
  if (connection.phase === 'starting') {
    return connection.startup ? [el('span', { class: 'banner-text' }, connection.message ?? phaseLabels.starting), stageList(connection.startup)] : null;
  }
  if (!problemPhases.has(connection.phase)) return null;
  // A failed start's sentence leaves its log lines to the folded details under it.
  const sentence = connection.startup?.summary ?? connection.message ?? phaseLabels[connection.phase];
  const content = [
    icon(connection.phase === 'restricted' ? 'shield' : connection.phase === 'signInRequired' ? 'account' : 'error'),
    el('span', { class: 'banner-text' }, textWithCode(sentence)),
  ];
  if (connection.startup?.summary) content.push(el('div', { class: 'banner-details' }, ...failureDetails(connection.startup, post)));
  const actions = bannerActions(connection, post);
  if (actions.length > 0) content.push(el('div', { class: 'banner-actions' }, ...actions));
  return content;
}

function bannerActions(connection: ConnectionView, post: PostToHost): HTMLElement[] {
  if (connection.phase === 'restricted') return [];
  if (connection.phase === 'signInRequired') return signInButtons(connection.signIn ?? [], post);
  const installCommand = connection.notInstalled?.installCommand;
  return [
    ...(installCommand ? [button('Copy install command', { icon: 'copy', title: installCommand, onClick: () => post({ type: 'copyText', text: installCommand }) })] : []),
    button('Show log', { secondary: true, onClick: () => post({ type: 'runAction', action: 'showLog' }) }),
    button(connection.phase === 'exited' ? 'Restart' : 'Try again', { icon: 'debug-restart', onClick: () => post({ type: 'runAction', action: 'restartAgent' }) }),
  ];
}

/** One button per way to sign in the agent offers, then the log. */
function signInButtons(methods: SignInMethodView[], post: PostToHost): HTMLElement[] {
  return [
    ...methods.map((method) => button(method.name, {
      icon: method.kind === 'terminal' ? 'terminal' : 'sign-in',
      title: method.description ?? (method.kind === 'terminal' ? `Sign in with ${method.name} in a terminal` : `Sign in with ${method.name}`),
      onClick: () => post({ type: 'signIn', methodId: method.methodId }),
    })),
    button('Show log', { secondary: true, onClick: () => post({ type: 'runAction', action: 'showLog' }) }),
  ];
}
