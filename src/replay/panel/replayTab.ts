import type { WebviewToHost } from '../../contract/messages';
import type { ThreadModel } from '../../thread/threadModel';

/**
 * What the user can do while a replayed recording is in front: look at it, move between tabs
 * and history, open what it shows, review the window's own pending changes. Nothing that would
 * act for the recorded agent (send, answer, sign in, change options, run, restore) reaches it.
 */
const LOOKING: ReadonlySet<WebviewToHost['type']> = new Set<WebviewToHost['type']>([
  'ready', 'threadDeltasApplied', 'selectTab', 'closeTab', 'selectAgent', 'openLink', 'copyText', 'requestMentions', 'setFollowAgent',
  'requestHistory', 'openHistory', 'deleteHistory', 'showFrames', 'reviewAction', 'reviewFeedback',
]);

export function allowedInReplay(message: WebviewToHost): boolean {
  if (message.type === 'runAction') return message.action !== 'restartAgent';
  return LOOKING.has(message.type);
}

export const REPLAY_NOTICE = 'A replay of a recording: nothing here is sent to an agent, run or written. Its cards are read-only.';

/** What a replay tab says when the user tries to send to it: the composer is still there, the agent is not. */
export async function refuseInReplay(tab: { session: { thread: Pick<ThreadModel, 'addNotice'> } }, message: WebviewToHost): Promise<void> {
  if (message.type === 'sendPrompt') tab.session.thread.addNotice('info', 'Nothing was sent: this tab replays a recording. Open a new conversation to talk to an agent.');
}
