import * as vscode from 'vscode';
import { builtInPresets, DEMO_AGENT_ID, resolveAgents, type AgentDefinition } from '../agentConfig';
import { AGENT_PRIORITIES, type AgentPriority } from '../../util/processPriority';
import { SETTINGS } from '../../contract/ids';

export function readAgents(extensionUri: vscode.Uri): { agents: AgentDefinition[]; problems: string[] } {
  const demoScript = vscode.Uri.joinPath(extensionUri, 'dist', 'demo-agent.js').fsPath;
  const user = vscode.workspace.getConfiguration().get<Record<string, unknown>>(SETTINGS.agents) ?? {};
  return resolveAgents(user, builtInPresets(demoScript, process.execPath));
}

export function readDefaultAgentId(): string {
  return vscode.workspace.getConfiguration().get<string>(SETTINGS.defaultAgent) || DEMO_AGENT_ID;
}

/** How agents and the commands they run share the CPU with the editor; anything but a known value is the default. */
export function readAgentPriority(): AgentPriority {
  const value = vscode.workspace.getConfiguration().get<string>(SETTINGS.agentPriority);
  return AGENT_PRIORITIES.find((priority) => priority === value) ?? 'belowEditor';
}
