import * as vscode from 'vscode';
import type { AgentServerSettings } from '../../agents/agentConfig';
import { DEFAULT_REGISTRY_URL, parseRegistry, registryPlatform, settingsForRegistryAgent, type RegistryAgent } from '../registry';
import { reviewRegistryEntry, variableQuestion, withoutVariables } from '../registryEntryReview';
import { type Logger } from '../../util/logger';
import { errorMessage } from '../../redaction/redactedLog';
import { COMMANDS, SETTINGS } from '../../contract/ids';
import { visibleLines, visibleText } from '../../util/visibleText';

/** "Add Agent from Registry…": pick an agent of the ACP registry, confirm what it runs, add it to tandem.agents. */
export function registerRegistryCommand(logger: Logger, onAdded: (agentId: string) => Promise<void>): vscode.Disposable {
  return vscode.commands.registerCommand(COMMANDS.addAgentFromRegistry, async () => {
    const agents = await readRegistry(logger);
    if (!agents) return;
    const platform = registryPlatform(process.platform, process.arch);
    const picked = await vscode.window.showQuickPick(agents.map((agent) => ({
      label: agent.name,
      description: [agent.version && `v${agent.version}`, agent.npx ? 'npx' : agent.uvx ? 'uvx' : agent.binary[platform] ? vscode.l10n.t('download') : vscode.l10n.t('not for this platform')].filter(Boolean).join(' · '),
      detail: agent.description,
      agent,
    })), { title: vscode.l10n.t('Add an agent from the ACP registry'), matchOnDescription: true, matchOnDetail: true, placeHolder: vscode.l10n.t('{0} agents', agents.length) });
    if (!picked) return;
    let entry;
    try {
      entry = settingsForRegistryAgent(picked.agent, platform);
    } catch (error) {
      void vscode.window.showErrorMessage(errorMessage(error));
      return;
    }
    const settings = await confirmedSettings(picked.agent, entry.settings, logger);
    if (!settings) return;
    const configuration = vscode.workspace.getConfiguration();
    const current = configuration.get<Record<string, unknown>>(SETTINGS.agents) ?? {};
    await configuration.update(SETTINGS.agents, { ...current, [picked.agent.id]: settings }, vscode.ConfigurationTarget.Global);
    logger.info(`[registry] added ${picked.agent.id} to ${SETTINGS.agents}`);
    if (entry.note) void vscode.window.showInformationMessage(vscode.l10n.t('{0} was added. {1}', picked.agent.name, entry.note));
    await onAdded(picked.agent.id);
  });
}

async function readRegistry(logger: Logger): Promise<RegistryAgent[] | null> {
  const url = vscode.workspace.getConfiguration().get<string>(SETTINGS.registryUrl) || DEFAULT_REGISTRY_URL;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(15_000) });
    if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
    return parseRegistry(await response.json());
  } catch (error) {
    logger.error(`[registry] ${url}: ${errorMessage(error)}`);
    void vscode.window.showErrorMessage(vscode.l10n.t('The ACP agent registry could not be read ({0}).', errorMessage(error)), vscode.l10n.t('Show Log'))
      .then((choice) => choice && vscode.commands.executeCommand(COMMANDS.showLog));
    return null;
  }
}

/**
 * The user sees the exact command, arguments and environment and says yes, then says yes to each
 * dangerous variable on its own (or leaves it out). Closing any question adds nothing.
 */
async function confirmedSettings(agent: RegistryAgent, settings: AgentServerSettings, logger: Logger): Promise<AgentServerSettings | null> {
  const review = reviewRegistryEntry(agent, settings);
  if ('problem' in review) {
    logger.warn(`[registry] ${agent.id} not added: ${review.problem}`);
    void vscode.window.showErrorMessage(vscode.l10n.t('{0} was not added: {1}.', agent.name, review.problem));
    return null;
  }
  const add = vscode.l10n.t('Add Agent');
  if (await vscode.window.showWarningMessage(visibleText(review.title), { modal: true, detail: visibleLines(review.summary) }, add) !== add) return null;
  const leftOut: string[] = [];
  for (const variable of review.dangerous) {
    const question = variableQuestion(agent.name, variable);
    const keep = vscode.l10n.t('Keep {0}', variable.name);
    const choice = await vscode.window.showWarningMessage(visibleText(question.message), { modal: true, detail: visibleLines(question.detail) }, keep, vscode.l10n.t('Leave {0} Out', variable.name));
    if (!choice) return null;
    if (choice !== keep) leftOut.push(variable.name);
  }
  if (leftOut.length > 0) logger.info(`[registry] ${agent.id}: left out ${leftOut.join(', ')}`);
  return withoutVariables(review.settings, leftOut);
}
