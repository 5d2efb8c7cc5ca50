import { homedir } from 'node:os';
import * as vscode from 'vscode';
import { COMMANDS } from '../../util/ids';
import type { Logger } from '../../util/logger';
import { usageCsv } from '../usageCsv';
import { UsageLedger } from '../usageLedger';

/**
 * The usage ledger in the extension's global storage (every window and workspace adds to the same
 * one, so totals cross projects), and **Export Usage as CSV…**.
 */
export function createUsageFeature(context: vscode.ExtensionContext, logger: Logger): { ledger: UsageLedger; disposable: vscode.Disposable } {
  const ledger = new UsageLedger(vscode.Uri.joinPath(context.globalStorageUri, 'usage').fsPath, logger);
  void ledger.prune().catch((error: unknown) => logger.warn(`Could not prune the usage ledger: ${String(error)}`));
  const disposable = vscode.commands.registerCommand(COMMANDS.exportUsage, () => exportUsage(ledger, logger));
  return { ledger, disposable };
}

async function exportUsage(ledger: UsageLedger, logger: Logger): Promise<void> {
  const { entries, skipped } = await ledger.read();
  if (skipped > 0) logger.warn(`The usage ledger has ${skipped} line(s) it could not read; they are left out of the export.`);
  if (entries.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No usage recorded yet: each turn an agent finishes is counted from now on.'));
    return;
  }
  const home = vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(homedir());
  const target = await vscode.window.showSaveDialog({
    defaultUri: vscode.Uri.joinPath(home, 'tandem-usage.csv'),
    filters: { CSV: ['csv'] },
    saveLabel: vscode.l10n.t('Export'),
  });
  if (!target) return;
  await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(usageCsv(entries)));
  void vscode.window.showInformationMessage(vscode.l10n.t('Exported {0} turns of usage to {1}.', entries.length, vscode.workspace.asRelativePath(target)));
}
