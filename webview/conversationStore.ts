import { emptyConversation, emptyPermissions, type ConversationView, type PermissionsView } from '../src/contract/conversationView';

/** The panel's copy of the conversation controls and the permission policy; views subscribe. */
export class ConversationStore {
  private current: ConversationView = emptyConversation;
  private policy: PermissionsView = emptyPermissions;
  private readonly listeners = new Set<() => void>();

  get view(): ConversationView {
    return this.current;
  }

  get permissions(): PermissionsView {
    return this.policy;
  }

  set(view: ConversationView): void {
    this.current = view;
    this.notify();
  }

  setPermissions(view: PermissionsView): void {
    this.policy = view;
    this.notify();
  }

  subscribe(listener: () => void): void {
    this.listeners.add(listener);
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }
}
