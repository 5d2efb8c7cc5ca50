import * as vscode from 'vscode';
import type { AgentDefinition } from '../agents/agentConfig';
import type { ChatPresenter } from '../panel/chatPresenter';
import { ChatViewProvider } from './chatViewProvider';

export interface CommandDeps {
  presenter: ChatPresenter;
  agents(): AgentDefinition[];
  showLog(): void;
  showTraffic(): void;
}

/** Every command the package contributes is registered here (a test checks the two lists agree). */
export function registerCommands(deps: CommandDeps): vscode.Disposable[] {
  const reveal = () => vscode.commands.executeCommand(`${ChatViewProvider.viewId}.focus`);
  return [
    vscode.commands.registerCommand('tandem.newSession', async () => {
      await reveal();
      await deps.presenter.newSession();
    }),
    vscode.commands.registerCommand('tandem.cancelTurn', () => deps.presenter.cancelTurn()),
    vscode.commands.registerCommand('tandem.selectAgent', async () => {
      const picked = await vscode.window.showQuickPick(
        deps.agents().map((agent) => ({ label: agent.label, description: agent.command, detail: agent.description, id: agent.id })),
        { title: 'Tandem: choose an agent', placeHolder: 'Agents come from presets and the tandem.agents setting' },
      );
      if (!picked) return;
      await reveal();
      await deps.presenter.selectAgent(picked.id);
    }),
    vscode.commands.registerCommand('tandem.restartAgent', () => deps.presenter.runAction('restartAgent')),
    vscode.commands.registerCommand('tandem.showLog', () => deps.showLog()),
    vscode.commands.registerCommand('tandem.signOut', async () => {
      const session = deps.presenter.currentSession;
      const choice = await vscode.window.showWarningMessage(`Sign out of ${session.agent.label}?`, { modal: true, detail: 'Tandem forgets the API keys it kept for this agent and asks the agent to log out where it can.' }, 'Sign Out');
      if (choice === 'Sign Out') await session.signOut();
    }),
    vscode.commands.registerCommand('tandem.showTraffic', () => deps.showTraffic()),
    vscode.commands.registerCommand('tandem.redoRestore', async () => {
      await reveal();
      await deps.presenter.previewRedoRestore();
    }),
  ];
}
