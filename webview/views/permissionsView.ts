import type { PermissionsView } from '../../src/contract/conversationView';
import { SETTINGS } from '../../src/contract/ids';
import type { ConversationStore } from '../conversationStore';
import { button, el, icon, isEditorPath } from '../dom';
import type { PostToHost } from '../vscodeApi';

const kindNames: Record<string, string> = {
  read: 'reads', edit: 'edits', delete: 'deletions', move: 'moves', search: 'searches', execute: 'commands',
  think: 'thinking steps', fetch: 'fetches', switch_mode: 'mode switches', other: 'other tools',
};

function render(view: PermissionsView, post: PostToHost): HTMLElement[] {
  const auto = view.autoAllowKinds.length > 0
    ? `Allowed without asking, inside the workspace only: ${view.autoAllowKinds.map((kind) => kindNames[kind] ?? kind).join(', ')}.`
    : 'Nothing is allowed without asking.';
  const grants = view.grants.length === 0
    ? [el('p', { class: 'hint' }, 'No "always allow" answers yet. When you choose one, Tandem keeps it here (not in the project) until you revoke it.')]
    : view.grants.map((grant) => el('div', { class: 'grant-row', 'data-grant-id': grant.id },
      icon('pass'), el('span', { class: 'grant-text', title: new Date(grant.createdAt).toLocaleString() }, grant.description),
      button('Revoke', { secondary: true, title: `Ask again for ${grant.description}`, onClick: () => post({ type: 'revokeGrant', grantId: grant.id }) })));
  const rules = view.projectRules.map((file) => {
    // The path goes to the host on click; as an href it could be anything the project contains.
    const link = el('a', { href: '#', class: 'rules-file', 'data-path': file.path, title: `Open ${file.path}` }, file.label);
    return el('div', { class: 'project-rules' },
      el('div', { class: 'rules-header' }, icon('file'), ' ', link, el('span', { class: 'hint' }, ' (kept by the agent inside the project; Tandem shows them, the agent applies them)')),
      el('ul', {}, ...file.allow.map((rule) => el('li', { class: 'rule-allow' }, icon('check'), ` allow ${rule}`)),
        ...file.deny.map((rule) => el('li', { class: 'rule-deny' }, icon('close'), ` deny ${rule}`))));
  });
  return [
    el('div', { class: 'permissions-title' }, icon('shield'), ' Permissions'),
    el('p', { class: 'auto-allow' }, auto, el('span', { class: 'hint' }, ` Setting: ${SETTINGS.autoAllow}.`)),
    el('div', { class: 'permissions-subtitle' }, 'Your "always allow" answers'),
    ...grants,
    ...(rules.length > 0 ? [el('div', { class: 'permissions-subtitle' }, 'Rules the agent saved in this project'), ...rules] : []),
  ];
}

/** Tandem's policy for the current agent: auto-allowed kinds, kept grants (revocable), project rules. */
export class PermissionsPanel {
  readonly element = el('section', { class: 'permissions-panel', id: 'permissions-panel', 'aria-label': 'Permissions', hidden: '' });

  constructor(private readonly post: PostToHost, private readonly conversation: ConversationStore) {
    this.element.addEventListener('click', (event) => {
      const link = (event.target as HTMLElement).closest('a.rules-file');
      if (!link) return;
      event.preventDefault();
      const path = link.getAttribute('data-path');
      if (path && isEditorPath(path)) post({ type: 'openLink', href: path });
    });
    conversation.subscribe(() => {
      if (!this.element.hidden) this.element.replaceChildren(...render(conversation.permissions, post));
    });
  }

  get open(): boolean {
    return !this.element.hidden;
  }

  toggle(): boolean {
    this.element.hidden = !this.element.hidden;
    if (!this.element.hidden) this.element.replaceChildren(...render(this.conversation.permissions, this.post));
    return !this.element.hidden;
  }
}
