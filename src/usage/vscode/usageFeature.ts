import { homedir } from 'node:os';
import * as vscode from 'vscode';
import { ReportDocuments } from '../../inspector/vscode/reportDocuments';
import type { BudgetSource } from '../../conversation/budgetGuard';
import { COMMANDS, SETTINGS } from '../../util/ids';
import type { BudgetLimits } from '../budget';
import type { Logger } from '../../util/logger';
import { usageCsv } from '../usageCsv';
import { localDay } from '../usageEntry';
import { UsageLedger } from '../usageLedger';
import { usageReport } from '../usageReport';

/**
 * The usage ledger in the extension's global storage (every window and workspace adds to the same
 * one, so totals cross projects), **Show Usage** (the report in the Markdown preview) and
 * **Export Usage as CSV…**.
 */
export function createUsageFeature(context: vscode.ExtensionContext, logger: Logger): { ledger: UsageLedger; budget: BudgetSource; disposable: vscode.Disposable } {
  const folder = vscode.Uri.joinPath(context.globalStorageUri, 'usage').fsPath;
  const ledger = new UsageLedger(folder, logger);
  void ledger.prune().catch((error: unknown) => logger.warn(`Could not prune the usage ledger: ${String(error)}`));
  const reports = new ReportDocuments('tandem-usage');
  const disposable = vscode.Disposable.from(
    reports,
    vscode.commands.registerCommand(COMMANDS.showUsage, () => showUsage(ledger, folder, reports)),
    vscode.commands.registerCommand(COMMANDS.exportUsage, () => exportUsage(ledger, logger)),
  );
  const budget: BudgetSource = { limits: readBudgetLimits, spentSince: (day, currency) => ledger.spentSince(day, currency) };
  return { ledger, budget, disposable };
}

/** A limit from the user's settings: a number of 0 or more, else none. */
function limit(name: string): number | null {
  const value = vscode.workspace.getConfiguration().inspect<unknown>(name)?.globalValue;
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null;
}

/** The budgets in the user's own settings only: a project's settings must not raise or lift them. */
function readBudgetLimits(): BudgetLimits {
  const currency = vscode.workspace.getConfiguration().inspect<unknown>(SETTINGS.budgetCurrency)?.globalValue;
  return {
    conversation: limit(SETTINGS.budgetPerConversation),
    day: limit(SETTINGS.budgetPerDay),
    month: limit(SETTINGS.budgetPerMonth),
    currency: typeof currency === 'string' && currency.trim() !== '' ? currency.trim() : 'USD',
  };
}

async function showUsage(ledger: UsageLedger, folder: string, reports: ReportDocuments): Promise<void> {
  const { entries, skipped } = await ledger.read();
  await reports.show(vscode.l10n.t('Tandem usage'), usageReport({ entries, skipped, today: localDay(new Date()), ledgerFolder: folder }));
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
