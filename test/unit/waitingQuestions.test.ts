import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { scriptedPresenter } from '../support/sessionBuilders';
import { waitFor } from '../support/waitFor';

describe('what agents wait on the user for, across conversations', () => {
  test('a permission and a form are listed with their question and answers; each change is told; an answer from outside goes to that request only', async (t) => {
    const panel = scriptedPresenter(t);
    await panel.ready();
    const { presenter } = panel;
    let told = 0;
    const subscription = presenter.onWaitingChanged(() => told++);
    t.after(() => subscription.dispose());
    assert.deepEqual(presenter.waitingQuestions(), []);

    const permissionTurn = presenter.sendPrompt('permission');
    const [asked] = await waitFor(() => (presenter.waitingQuestions().length > 0 ? presenter.waitingQuestions() : undefined), 'the permission to wait');
    assert.ok(asked && told > 0, 'the change was told');
    assert.deepEqual({ ...asked, requestId: '' }, {
      tabId: presenter.state().tabs.activeTabId, agentLabel: 'Scripted agent', kind: 'permission', requestId: '', question: 'Edit notes.md',
      options: asked.options,
    });
    assert.deepEqual(asked.options.map((option) => option.kind), ['allow_once', 'allow_always', 'reject_once']);
    assert.equal(presenter.state().tabs.tabs[0]?.waiting, true);

    assert.equal(presenter.answerWaiting(asked, 'not-offered'), false, 'only an option the agent offered');
    const allowOnce = asked.options.find((option) => option.kind === 'allow_once');
    assert.ok(allowOnce);
    assert.equal(presenter.answerWaiting(asked, allowOnce.optionId), true);
    await permissionTurn;
    assert.equal(presenter.currentSession.thread.lastAgentText(), `Permission outcome: ${allowOnce.optionId}`);
    assert.deepEqual(presenter.waitingQuestions(), []);
    assert.equal(presenter.answerWaiting(asked, allowOnce.optionId), false, 'an answered request is not answered again');

    const formTurn = presenter.sendPrompt('elicit');
    const [form] = await waitFor(() => (presenter.waitingQuestions().length > 0 ? presenter.waitingQuestions() : undefined), 'the form to wait');
    assert.equal(form?.kind, 'form');
    assert.equal(form?.question, 'Deployment details');
    assert.deepEqual(form?.options, [], 'a form is filled in the panel');
    assert.equal(presenter.state().tabs.tabs[0]?.waiting, true, 'the tab shows a form waiting too');
    assert.equal(form && presenter.answerWaiting(form, 'anything'), false);
    await presenter.cancelTurn();
    await formTurn;
    assert.deepEqual(presenter.waitingQuestions(), [], 'Stop withdrew the form');
  });
});
