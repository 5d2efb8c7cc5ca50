import * as vscode from 'vscode';
import type { ChatPresenter } from '../panel/chatPresenter';
import type { WaitingQuestion } from '../panel/waitingQuestions';
import { DisposableBase } from '../util/disposable';
import { COMMANDS, FOCUS_CHAT_COMMAND, SETTINGS, WAITING_STATUS_ITEM } from '../contract/ids';
import type { Logger } from '../util/logger';
import { errorMessage } from '../redaction/redactedLog';

/** Where the view shows its badge; the provider keeps it for a view resolved later. */
export interface WaitingBadge {
  readonly isVisible: boolean;
  setBadge(badge: vscode.ViewBadge | undefined): void;
}

/** A question asked in one line: a title padded with newlines must not hide the rest. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * An agent waiting on the user is visible wherever the user is looking: a badge on the view, a
 * status bar item, and (when the panel is hidden or the window is in the background) a
 * notification with the question and its answers. Each question notifies once.
 */
export class WaitingAttention extends DisposableBase {
  private readonly item = this.register(vscode.window.createStatusBarItem(WAITING_STATUS_ITEM, vscode.StatusBarAlignment.Left, 1000));
  private readonly notified = new Set<string>();

  constructor(private readonly presenter: ChatPresenter, private readonly badge: WaitingBadge, private readonly logger: Logger) {
    super();
    this.item.name = 'Tandem: an agent is waiting for you';
    this.item.command = COMMANDS.showWaitingQuestion;
    this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
    this.register(presenter.onWaitingChanged(() => this.update()));
    this.register(vscode.commands.registerCommand(COMMANDS.showWaitingQuestion, () => this.show(this.presenter.waitingQuestions()[0])));
    this.update();
  }

  private update(): void {
    const questions = this.presenter.waitingQuestions();
    const [first] = questions;
    if (!first) {
      this.item.hide();
      this.badge.setBadge(undefined);
      this.notified.clear();
      return;
    }
    const summary = questions.length === 1 ? `${first.agentLabel} is waiting for your ${first.kind === 'form' ? 'answer' : 'permission'}` : `${questions.length} agents are waiting for you`;
    this.item.text = `$(bell-dot) ${summary}`;
    this.item.tooltip = questions.map((question) => `${question.agentLabel}: ${oneLine(question.question)}`).join('\n');
    this.item.show();
    this.badge.setBadge({ value: questions.length, tooltip: summary });
    const open = new Set(questions.map(key));
    for (const seen of [...this.notified]) if (!open.has(seen)) this.notified.delete(seen);
    for (const question of questions) this.notifyOnce(question);
  }

  private notifyOnce(question: WaitingQuestion): void {
    if (this.notified.has(key(question))) return;
    this.notified.add(key(question));
    if (this.badge.isVisible && vscode.window.state.focused) return;
    if (!vscode.workspace.getConfiguration().get<boolean>(SETTINGS.notifyWhenWaiting, true)) return;
    const answers = question.options.map((option) => option.name);
    const asked = question.kind === 'form'
      ? vscode.l10n.t('{0} asks you to fill in a form: {1}', question.agentLabel, oneLine(question.question))
      : vscode.l10n.t('{0} asks: {1}', question.agentLabel, oneLine(question.question));
    void vscode.window.showWarningMessage(asked, ...answers, vscode.l10n.t('Show in Tandem')).then((picked) => this.answer(question, picked), (error: unknown) => this.logger.warn(`[waiting] ${errorMessage(error)}`));
  }

  private answer(question: WaitingQuestion, picked: string | undefined): void {
    if (picked === undefined) return;
    const option = question.options.find((candidate) => candidate.name === picked);
    if (!option) {
      void this.show(question);
      return;
    }
    if (!this.presenter.answerWaiting(question, option.optionId)) {
      void vscode.window.showInformationMessage(vscode.l10n.t('That question from {0} was already answered or withdrawn.', question.agentLabel));
    }
  }

  private async show(question: WaitingQuestion | undefined): Promise<void> {
    await vscode.commands.executeCommand(FOCUS_CHAT_COMMAND);
    if (question) await this.presenter.showConversation(question.tabId);
  }
}

const key = (question: WaitingQuestion) => `${question.tabId}/${question.requestId}`;
