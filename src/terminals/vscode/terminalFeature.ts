import * as vscode from 'vscode';
import type { TerminalMirrorHandle } from '../terminalDisplays';
import type { SessionContext } from '../../workspace/sessionContext';
import type { LoginCommand, LoginResult, SignInRunner } from '../../conversation/signIn';
import type { TerminalDisplays } from '../terminalDisplays';
import { TerminalService, type CommandService } from '../terminalService';
import { DisposableBase, toDisposable } from '../../util/disposable';
import type { Logger } from '../../util/logger';
import { TerminalMirrors } from './terminalMirror';
import { readAgentPriority } from '../../agents/vscode/agentSettings';
import { visibleText } from '../../util/visibleText';

/** Login programs run in a real VS Code terminal, where the user can type; its exit ends the wait. */
class SignInTerminals extends DisposableBase implements SignInRunner {
  private readonly waiting = new Set<() => void>();

  constructor() {
    super();
    this.register(toDisposable(() => {
      for (const stop of this.waiting) stop();
    }));
  }

  runLogin(login: LoginCommand): Promise<LoginResult> {
    const terminal = vscode.window.createTerminal({
      name: login.label,
      shellPath: login.command,
      shellArgs: login.args,
      env: login.env,
      cwd: login.cwd,
      iconPath: new vscode.ThemeIcon('account'),
    });
    terminal.show(false);
    return new Promise((resolve) => {
      const stop = () => {
        subscription.dispose();
        this.waiting.delete(stop);
        resolve({ exitCode: terminal.exitStatus?.code ?? null });
      };
      // VS Code closes a terminal whose program exited; its exit status says how.
      const subscription = vscode.window.onDidCloseTerminal((closed) => {
        if (closed === terminal) stop();
      });
      this.waiting.add(stop);
    });
  }
}

/** A command's folder outside the workspace runs only after the user agrees, once per folder. */
async function allowCwdOutsideRoots(cwd: string): Promise<boolean> {
  const allow = vscode.l10n.t('Allow');
  const answer = await vscode.window.showWarningMessage(
    vscode.l10n.t('The agent wants to run a command in {0}, outside this workspace.', visibleText(cwd)),
    { modal: true, detail: vscode.l10n.t('Commands can read and change anything in that folder.') },
    allow,
  );
  return answer === allow;
}

/** Terminals for sessions: commands run as real processes, mirrors in the terminal panel, sign-in. */
export function createTerminalFeature(context: vscode.ExtensionContext, logger: Logger) {
  const signIn = new SignInTerminals();
  context.subscriptions.push(signIn);
  return {
    signIn,
    /** A session's commands, in the folders of its workspace. */
    commands: (session: SessionContext, roots: () => readonly string[]): CommandService => new TerminalService({
      cwd: session.cwd,
      roots,
      displays: session.terminalDisplays,
      logger,
      allowCwdOutsideRoots,
      priority: readAgentPriority,
    }),
    mirrorTerminals: (displays: TerminalDisplays): TerminalMirrorHandle => new TerminalMirrors(displays),
  };
}
