import type { SessionController } from '../conversation/sessionController';
import type { PermissionOptionView } from '../thread/entries';

/**
 * A question an agent is waiting on the user for (a permission or a form). The panel shows it in
 * its thread; the editor shows that one is waiting where the user is looking when the panel is not.
 */
export interface WaitingQuestion {
  tabId: string;
  agentLabel: string;
  kind: 'permission' | 'form';
  requestId: string;
  /** What is asked: the tool call's title, or the form's message. */
  question: string;
  /** The answers a permission offers; a form is filled in the panel, so it offers none here. */
  options: readonly PermissionOptionView[];
}

/** The newest question `session` waits on the user for; null when it waits for nothing. */
export function waitingQuestionOf(tab: { id: string; agent: { label: string }; session: SessionController }): WaitingQuestion | null {
  const entry = tab.session.thread.findLastEntry((candidate) => (candidate.kind === 'toolCall' && candidate.tool.permission !== null)
    || (candidate.kind === 'elicitation' && candidate.elicitation.state === 'open'));
  const asked = { tabId: tab.id, agentLabel: tab.agent.label };
  if (entry?.kind === 'toolCall' && entry.tool.permission) {
    return { ...asked, kind: 'permission', requestId: entry.tool.permission.requestId, question: entry.tool.title, options: entry.tool.permission.options };
  }
  if (entry?.kind === 'elicitation') {
    return { ...asked, kind: 'form', requestId: entry.elicitation.requestId, question: entry.elicitation.title ?? entry.elicitation.message, options: [] };
  }
  return null;
}
