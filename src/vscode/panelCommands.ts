import * as vscode from 'vscode';
import type { AgentDefinition } from '../agents/agentConfig';
import type { ChatPresenter } from '../panel/chatPresenter';
import { COMMANDS, FOCUS_CHAT_COMMAND, SETTINGS } from '../contract/ids';

export interface PanelCommandDeps {
  presenter: ChatPresenter;
  agents(): AgentDefinition[];
  showLog(): void;
  showTraffic(): void;
}

/**
 * The chat panel's own commands: a new conversation, the agent and its turn, sign-out, the log and
 * the traffic, and redoing a restore. Each feature registers its commands where it lives (review,
 * the inspector, replay, the registry); test/unit/packageContributions.test.ts checks that every
 * command package.json contributes is registered once, somewhere in src.
 */
export function registerPanelCommands(deps: PanelCommandDeps): vscode.Disposable[] {
  const reveal = () => vscode.commands.executeCommand(FOCUS_CHAT_COMMAND);
  return [
    vscode.commands.registerCommand(COMMANDS.newSession, async () => {
      await reveal();
      await deps.presenter.newSession();
    }),
    vscode.commands.registerCommand(COMMANDS.cancelTurn, () => deps.presenter.cancelTurn()),
    vscode.commands.registerCommand(COMMANDS.selectAgent, async () => {
      const picked = await vscode.window.showQuickPick(
        deps.agents().map((agent) => ({ label: agent.label, description: agent.command, detail: agent.description, id: agent.id })),
        { title: vscode.l10n.t('Tandem: choose an agent'), placeHolder: vscode.l10n.t('Agents come from presets and the {0} setting', SETTINGS.agents) },
      );
      if (!picked) return;
      await reveal();
      await deps.presenter.selectAgent(picked.id);
    }),
    vscode.commands.registerCommand(COMMANDS.restartAgent, () => deps.presenter.runAction('restartAgent')),
    vscode.commands.registerCommand(COMMANDS.showLog, () => deps.showLog()),
    vscode.commands.registerCommand(COMMANDS.signOut, async () => {
      const session = deps.presenter.currentSession;
      const signOut = vscode.l10n.t('Sign Out');
      const choice = await vscode.window.showWarningMessage(vscode.l10n.t('Sign out of {0}?', session.agent.label), {
        modal: true,
        detail: vscode.l10n.t('Tandem forgets the API keys it kept for this agent and asks the agent to log out where it can.'),
      }, signOut);
      if (choice === signOut) await session.signOut();
    }),
    vscode.commands.registerCommand(COMMANDS.showTraffic, () => deps.showTraffic()),
    vscode.commands.registerCommand(COMMANDS.redoRestore, async () => {
      await reveal();
      await deps.presenter.previewRedoRestore();
    }),
  ];
}
