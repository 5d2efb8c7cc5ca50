import type { BudgetWarning, ConfigControlView, UsageView } from '../../src/contract/conversationView';
import { formatCost, usageDescription, usageLabel } from '../../src/contract/usageText';
import type { ConversationStore } from '../conversationStore';
import { el, icon } from '../dom';
import type { PostToHost } from '../vscodeApi';
import { RateLimitsView } from './agentExtrasRows';
import { READ_ONLY_REASON } from '../../src/contract/sessionTabsView';

function renderUsage(usage: UsageView | null): HTMLElement {
  if (!usage) return el('span', { class: 'usage-meter', id: 'usage-meter', hidden: '' });
  const title = usageDescription(usage);
  if (usage.kind === 'turn') {
    return el('span', { class: 'usage-meter usage-turn', id: 'usage-meter', title, 'aria-label': title, role: 'status' },
      icon('pulse'), el('span', { class: 'usage-text' }, usageLabel(usage)));
  }
  const ring = el('span', { class: 'usage-ring', 'aria-hidden': 'true' });
  // CSSOM, not a style attribute: the CSP allows no inline styles.
  ring.style.setProperty('--usage', `${usage.percent.toFixed(1)}%`);
  return el('span', {
    class: `usage-meter usage-context level-${usage.level}`, id: 'usage-meter', title, role: 'meter', 'aria-label': title,
    'aria-valuemin': '0', 'aria-valuemax': '100', 'aria-valuenow': String(Math.round(usage.percent)),
  // "Context" in words: a bare "4%" beside a price does not say what is four percent full.
  }, el('span', { class: 'usage-name' }, 'Context'), ring, el('span', { class: 'usage-text' }, usageLabel(usage)),
  usage.cost ? el('span', { class: 'usage-cost' }, formatCost(usage.cost)) : null);
}

/** A budget near or at its limit, beside the meter: its amounts in words, the sentence for the tooltip and screen readers. */
function renderBudget(budget: BudgetWarning | undefined): HTMLElement {
  if (!budget) return el('span', { class: 'budget-warning', id: 'budget-warning', hidden: '' });
  return el('span', { class: `budget-warning level-${budget.level}`, id: 'budget-warning', role: 'status', title: budget.text, 'aria-label': budget.text },
    icon(budget.level === 'reached' ? 'error' : 'warning'), el('span', { class: 'budget-text' }, budget.short));
}

function renderPicker(control: ConfigControlView, post: PostToHost): HTMLElement {
  const label = control.description ? `${control.name}: ${control.description}` : control.name;
  if (control.kind === 'boolean') {
    // A switch, as VS Code's own settings draw booleans: one control, its state in its shape.
    const toggle = el('button', {
      class: `config-toggle${control.currentValue ? ' on' : ''}`, 'data-option-id': control.id, role: 'switch', 'aria-checked': String(control.currentValue),
      title: label, 'aria-label': control.name,
    }, el('span', { class: 'switch-track', 'aria-hidden': 'true' }, el('span', { class: 'switch-thumb' })), el('span', { class: 'config-toggle-name' }, control.name));
    toggle.addEventListener('click', () => post({ type: 'setSessionOption', optionId: control.id, value: !control.currentValue }));
    if (control.pending) toggle.setAttribute('aria-busy', 'true');
    return toggle;
  }
  const select = el('select', { class: 'config-picker', 'data-option-id': control.id, 'data-category': control.category ?? '', title: label, 'aria-label': control.name });
  let group: HTMLElement | null = null;
  for (const choice of control.choices) {
    const option = el('option', { value: choice.value, title: choice.description ?? choice.name }, choice.name);
    if (choice.value === control.currentValue) option.setAttribute('selected', '');
    if (choice.group) {
      if (!group || group.getAttribute('label') !== choice.group) {
        group = el('optgroup', { label: choice.group });
        select.append(group);
      }
      group.append(option);
    } else {
      group = null;
      select.append(option);
    }
  }
  select.value = control.currentValue;
  if (control.pending) select.setAttribute('aria-busy', 'true');
  select.addEventListener('change', () => post({ type: 'setSessionOption', optionId: control.id, value: select.value }));
  // The name stays the label for screen readers; sighted users see the value, the name on hover (as VS Code's chat pickers do).
  return el('label', { class: `config-control${control.pending ? ' pending' : ''}` }, el('span', { class: 'config-name visually-hidden' }, control.name), select);
}

const FOLLOW_DETAIL = 'open each file it touches in the editor';
const PERMISSIONS_DETAIL = 'what is allowed without asking';

/**
 * An icon button's name in words, shown over it while it is hovered or has the keyboard focus
 * (a native title would show a second tooltip on hover and none on focus; screen readers read
 * the button's aria-label and aria-description).
 */
function iconTip(text: string): HTMLElement {
  return el('span', { class: 'icon-tip', 'aria-hidden': 'true' }, text);
}

/**
 * The row under the message box: the session's pickers (mode, model, thought level first), the
 * "follow the agent" toggle, the permissions button and the context meter.
 */
export class ComposerBar {
  readonly element = el('div', { class: 'composer-bar', id: 'composer-bar' });
  private readonly pickers = el('div', { class: 'config-pickers', id: 'config-pickers', role: 'group', 'aria-label': 'Session settings' });
  private readonly follow: HTMLButtonElement;
  private readonly permissionsButton: HTMLButtonElement;
  private usage: HTMLElement = renderUsage(null);
  private budget: HTMLElement = renderBudget(undefined);
  private readonly rateLimits = new RateLimitsView();
  private lastControls = '';
  private readOnly = false;

  constructor(private readonly post: PostToHost, private readonly conversation: ConversationStore, onTogglePermissions: () => void) {
    this.follow = el('button', { class: 'icon-toggle', id: 'follow-agent', 'aria-pressed': 'false', 'aria-label': 'Follow the agent', 'aria-description': FOLLOW_DETAIL }, icon('eye'), iconTip(`Follow the agent: ${FOLLOW_DETAIL}`));
    this.follow.addEventListener('click', () => post({ type: 'setFollowAgent', enabled: this.follow.getAttribute('aria-pressed') !== 'true' }));
    this.permissionsButton = el('button', { class: 'icon-toggle', id: 'permissions-button', 'aria-pressed': 'false', 'aria-label': 'Permissions', 'aria-description': PERMISSIONS_DETAIL }, icon('shield'), iconTip(`Permissions: ${PERMISSIONS_DETAIL}`));
    this.permissionsButton.addEventListener('click', onTogglePermissions);
    // The two toggles wrap together, never one at the end of a line and one at the start of the next.
    this.element.append(this.pickers, el('span', { class: 'bar-spacer' }), el('span', { class: 'bar-tools' }, this.follow, this.permissionsButton), this.rateLimits.element, this.budget, this.usage);
    conversation.subscribe(() => this.render());
  }

  setPermissionsOpen(open: boolean): void {
    this.permissionsButton.setAttribute('aria-pressed', String(open));
  }

  /** A tab nothing is sent from: its options show their values, greyed out, and say why they cannot change. */
  setReadOnly(readOnly: boolean): void {
    this.readOnly = readOnly;
    this.applyReadOnly();
  }

  private applyReadOnly(): void {
    this.pickers.setAttribute('aria-description', this.readOnly ? READ_ONLY_REASON : '');
    for (const control of this.pickers.querySelectorAll<HTMLSelectElement | HTMLButtonElement>('select, button')) {
      control.disabled = this.readOnly;
      const label = control.getAttribute('data-label') ?? control.title;
      control.setAttribute('data-label', label);
      control.title = this.readOnly ? `${label} (${READ_ONLY_REASON})` : label;
    }
  }

  private render(): void {
    const view = this.conversation.view;
    const controlsKey = JSON.stringify(view.controls);
    // Rebuilding a select the user is using would close it: only when something changed.
    if (controlsKey !== this.lastControls) {
      this.lastControls = controlsKey;
      this.pickers.replaceChildren(...view.controls.map((control) => renderPicker(control, this.post)));
      this.applyReadOnly();
    }
    this.follow.setAttribute('aria-pressed', String(view.followAgent));
    this.follow.classList.toggle('on', view.followAgent);
    this.rateLimits.render(view.rateLimits ?? []);
    const usage = renderUsage(view.usage);
    this.usage.replaceWith(usage);
    this.usage = usage;
    const budget = renderBudget(view.budget);
    this.budget.replaceWith(budget);
    this.budget = budget;
  }
}
