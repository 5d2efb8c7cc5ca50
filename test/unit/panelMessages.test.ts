import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { FrameStore } from '../../src/acp/frames';
import { parseWebviewMessage, type HostToWebview, type WebviewToHost } from '../../src/contract/messages';
import { ChatPresenter } from '../../src/panel/chatPresenter';
import { dispatchMessage, type MessageHandlers, type WebviewMessage, type WebviewMessageType } from '../../src/panel/panelMessages';
import { silentLogger } from '../../src/util/logger';
import { scriptedAgentDefinition } from '../support/scriptedAgentSpec';
import { tempWorkspace } from '../support/sessionBuilders';
import { waitFor } from '../support/waitFor';
import { folderScope } from '../../src/workspace/workspaceScope';

/** One message of every webview type; the compiler rejects this list when a type is missing. */
function oneOfEach(tabId: string): { [K in WebviewMessageType]: WebviewMessage<K> } {
  return {
    ready: { type: 'ready' },
    threadDeltasApplied: { type: 'threadDeltasApplied', batches: 1 },
    sendPrompt: { type: 'sendPrompt', text: 'echo every message' },
    cancelTurn: { type: 'cancelTurn' },
    retryMessage: { type: 'retryMessage', entryId: 'no-such-entry' },
    queueAction: { type: 'queueAction', action: 'remove', id: 'no-such-item' },
    selectAgent: { type: 'selectAgent', agentId: 'scripted' },
    answerPermission: { type: 'answerPermission', requestId: 'no-such-request', optionId: null },
    runAction: { type: 'runAction', action: 'showLog' },
    openLink: { type: 'openLink', href: 'https://example.com/docs' },
    reviewAction: { type: 'reviewAction', action: 'keepAll', path: null, hunkId: null },
    reviewFeedback: { type: 'reviewFeedback', change: { kind: 'removeComment', commentId: 'no-such-comment' } },
    checkpointAction: { type: 'checkpointAction', action: { kind: 'preview', entryId: 'no-such-message' } },
    terminalAction: { type: 'terminalAction', terminalId: 'no-such-terminal', action: 'reveal' },
    signIn: { type: 'signIn', methodId: 'no-such-method' },
    setSessionOption: { type: 'setSessionOption', optionId: 'no-such-option', value: 'x' },
    setFollowAgent: { type: 'setFollowAgent', enabled: false },
    requestMentions: { type: 'requestMentions', requestId: 7, query: 'src' },
    revokeGrant: { type: 'revokeGrant', grantId: 'no-such-grant' },
    copyText: { type: 'copyText', text: 'copied text' },
    selectTab: { type: 'selectTab', tabId },
    forkTab: { type: 'forkTab', tabId: 'no-such-tab' },
    renameTab: { type: 'renameTab', tabId, title: '  Renamed by the user  ' },
    requestHistory: { type: 'requestHistory' },
    openHistory: { type: 'openHistory', key: 'tandem:no-such-tab' },
    deleteHistory: { type: 'deleteHistory', key: 'tandem:no-such-tab' },
    answerElicitation: { type: 'answerElicitation', requestId: 'no-such-request', action: 'cancel', values: {} },
    closeTab: { type: 'closeTab', tabId: 'no-such-tab' },
    showFrames: { type: 'showFrames', toolCallId: 'no-such-tool-call' },
  };
}

const workspace = tempWorkspace({ after }, 'tandem-panel-messages-');

describe('webview message dispatch', () => {
  test('each message reaches the handler of its own type, and only that one', async () => {
    const samples = Object.values(oneOfEach('t1')) as WebviewToHost[];
    const received: Array<[string, WebviewToHost]> = [];
    const handlers = Object.fromEntries(samples.map((sample) => [sample.type, (message: WebviewToHost) => {
      received.push([sample.type, message]);
    }])) as unknown as MessageHandlers;
    for (const sample of samples) await dispatchMessage(handlers, sample);
    assert.deepEqual(received, samples.map((sample) => [sample.type, sample]));
  });

  test('the panel handles a message of every type the webview may send', async (t) => {
    const posted: HostToWebview[] = [];
    const actions: string[] = [];
    const presenter = new ChatPresenter(() => [scriptedAgentDefinition()], 'scripted', { workspace: () => folderScope(workspace), trusted: true, frames: new FrameStore(), logger: silentLogger },
      (message) => posted.push(message),
      {
        showLog: () => actions.push('log'), showTraffic: () => actions.push('traffic'), openLink: (href) => actions.push(href), rememberAgent: () => undefined,
        conversation: { copyText: (text) => actions.push(`copy: ${text}`) },
      });
    t.after(() => presenter.dispose());
    const tabId = presenter.state().tabs.activeTabId;

    for (const message of Object.values(oneOfEach(tabId))) {
      assert.deepEqual(parseWebviewMessage(message), { ok: true, message }, 'a message the webview can really send');
      if (message.type === 'sendPrompt') await waitFor(() => presenter.currentSession.connectionView.phase === 'ready', 'agent ready');
      await presenter.handle(message);
    }

    assert.deepEqual(actions, ['log', 'https://example.com/docs', 'copy: copied text'], 'editor actions ran in order');
    assert.equal(posted[0]?.type, 'snapshot', 'ready answered with a snapshot');
    assert.ok(posted.some((message) => message.type === 'mentionCandidates' && message.requestId === 7), 'mentions answered');
    assert.ok(posted.some((message) => message.type === 'historyChanged'), 'history answered');
    assert.ok(posted.some((message) => message.type === 'tabsChanged' && message.tabs.tabs.some((tab) => tab.title === 'Renamed by the user')), 'rename reached the tabs');
    const { tabs } = presenter.state();
    assert.deepEqual(tabs.tabs.map((tab) => tab.id), [tabId], 'messages about missing tabs, items and requests opened or closed nothing');
    assert.equal(tabs.activeTabId, tabId);
  });
});
