import * as vscode from 'vscode';
import { AGENTS_SETTING } from './agentSettings';
import { DEFAULT_REGISTRY_URL, parseRegistry, registryPlatform, settingsForRegistryAgent } from '../agents/registry';
import { errorMessage, type Logger } from '../util/logger';

export const REGISTRY_URL_SETTING = 'tandem.registryUrl';

/** "Add Agent from Registry…": pick an agent of the ACP registry and add it to tandem.agents. */
export function registerRegistryCommand(logger: Logger, onAdded: (agentId: string) => Promise<void>): vscode.Disposable {
  return vscode.commands.registerCommand('tandem.addAgentFromRegistry', async () => {
    const url = vscode.workspace.getConfiguration().get<string>(REGISTRY_URL_SETTING) || DEFAULT_REGISTRY_URL;
    let agents;
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(15_000) });
      if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
      agents = parseRegistry(await response.json());
    } catch (error) {
      logger.error(`[registry] ${url}: ${errorMessage(error)}`);
      void vscode.window.showErrorMessage(`The ACP agent registry could not be read (${errorMessage(error)}).`, 'Show Log')
        .then((choice) => choice && vscode.commands.executeCommand('tandem.showLog'));
      return;
    }
    const platform = registryPlatform(process.platform, process.arch);
    const picked = await vscode.window.showQuickPick(agents.map((agent) => ({
      label: agent.name,
      description: [agent.version && `v${agent.version}`, agent.npx ? 'npx' : agent.uvx ? 'uvx' : agent.binary[platform] ? 'download' : 'not for this platform'].filter(Boolean).join(' · '),
      detail: agent.description,
      agent,
    })), { title: 'Add an agent from the ACP registry', matchOnDescription: true, matchOnDetail: true, placeHolder: `${agents.length} agents` });
    if (!picked) return;
    let entry;
    try {
      entry = settingsForRegistryAgent(picked.agent, platform);
    } catch (error) {
      void vscode.window.showErrorMessage(errorMessage(error));
      return;
    }
    const configuration = vscode.workspace.getConfiguration();
    const current = configuration.get<Record<string, unknown>>(AGENTS_SETTING) ?? {};
    await configuration.update(AGENTS_SETTING, { ...current, [picked.agent.id]: entry.settings }, vscode.ConfigurationTarget.Global);
    logger.info(`[registry] added ${picked.agent.id} to ${AGENTS_SETTING}`);
    if (entry.note) void vscode.window.showInformationMessage(`${picked.agent.name} was added. ${entry.note}`);
    await onAdded(picked.agent.id);
  });
}
