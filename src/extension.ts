import * as vscode from 'vscode';
import { FrameStore } from './acp/frames';
import { ChatPresenter } from './panel/chatPresenter';
import { RememberedWorkspaceUse } from './panel/workspaceUse';
import type { SessionEnvironment } from './conversation/sessionController';
import { readAgentPriority, readAgents, readDefaultAgentId } from './agents/vscode/agentSettings';
import { ChatViewProvider } from './vscode/chatViewProvider';
import { WaitingAttention } from './vscode/waitingAttention';
import { registerPanelCommands } from './vscode/panelCommands';
import { openAgentLink } from './vscode/linkOpener';
import { createLogChannel } from './vscode/logChannel';
import { TrafficChannel } from './inspector/vscode/trafficChannel';
import { registerCommentCommand } from './review/vscode/reviewCommentCommand';
import { createMcpServerSource } from './agents/vscode/mcpSettings';
import { workspaceRecords } from './vscode/fileMemento';
import { workspaceTranscripts } from './vscode/transcriptStorage';
import { secretApiKeys } from './vscode/apiKeys';
import { registerRegistryCommand } from './registry/vscode/registryCommand';
import { AgentHostPool } from './acp/agentHost';
import { createTerminalFeature } from './terminals/vscode/terminalFeature';
import { createWindowScope } from './workspace/vscode/windowScope';
import { createConversationEditor } from './vscode/conversationEditor';
import { createPermissionPolicy } from './permissions/vscode/permissionSettings';
import { createProjectProgramConsent } from './permissions/vscode/projectProgramConsent';
import { InspectorFeature } from './inspector/vscode/inspectorFeature';
import { ReplayCommand } from './replay/vscode/replayCommand';
import { inspectedConversation } from './inspector/panel/inspectedConversation';
import { createUsageFeature } from './usage/vscode/usageFeature';
import { COMMANDS, FOCUS_CHAT_COMMAND, SETTINGS, STORAGE_KEYS, VIEWS } from './contract/ids';

/**
 * Returns nothing on purpose: whatever `activate` returns is handed to every other extension,
 * and a way to send prompts or answer permissions there would approve the agent's edits and
 * commands without the user's click.
 */
export function activate(context: vscode.ExtensionContext): void {
  const { channel, logger } = createLogChannel();
  context.subscriptions.push(channel);
  const frames = new FrameStore();
  const traffic = new TrafficChannel(frames);
  context.subscriptions.push(traffic);

  // The one place the window's folders are read: everything below gets them from here, through a scope.
  const roots = () => (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath);
  const records = workspaceRecords(context, logger);
  const apiKeys = secretApiKeys(context.secrets, context.globalState);
  const terminals = createTerminalFeature(context, logger);
  const { scope: windowScope, review } = createWindowScope({ context, records, roots, terminals, logger });
  const projectPrograms = createProjectProgramConsent(context);
  const usage = createUsageFeature(context, logger);
  context.subscriptions.push(usage.disposable);
  const environment: SessionEnvironment = {
    workspace: () => (roots().length > 0 ? windowScope : null),
    trusted: vscode.workspace.isTrusted,
    frames,
    logger,
    mcpServers: createMcpServerSource(context, roots, logger),
    projectPrograms: (agent, cwd) => projectPrograms.check(agent, cwd),
    agentHosts: new AgentHostPool(),
    signIn: terminals.signIn,
    apiKeys,
    permissionPolicy: createPermissionPolicy(context, roots),
    agentPriority: readAgentPriority,
    usageLedger: usage.ledger,
    budget: usage.budget,
  };
  const loadAgents = () => {
    const { agents, problems } = readAgents(context.extensionUri);
    for (const problem of problems) logger.warn(`[settings] ${problem}`);
    return agents;
  };
  const selected = context.workspaceState.get<string>(STORAGE_KEYS.selectedAgent) ?? readDefaultAgentId();

  let provider: ChatViewProvider | null = null;
  const presenter = new ChatPresenter(loadAgents, selected, environment, (message) => provider?.post(message), {
    showLog: () => channel.show(true),
    showTraffic: () => traffic.show(),
    openLink: (href) => void openAgentLink(href, roots(), logger),
    rememberAgent: (agentId) => void context.workspaceState.update(STORAGE_KEYS.selectedAgent, agentId),
    mirrorTerminals: terminals.mirrorTerminals,
    conversation: createConversationEditor(context, logger),
    workspaceUse: new RememberedWorkspaceUse(context.workspaceState),
    showFrames: (toolCallId) => void vscode.commands.executeCommand(COMMANDS.showFrameInspector, toolCallId),
    openSettings: (query) => void vscode.commands.executeCommand('workbench.action.openSettings', query),
  }, review, workspaceTranscripts(records), windowScope.checkpoints);
  context.subscriptions.push(presenter);
  if (presenter.reviewFeedback) context.subscriptions.push(registerCommentCommand(review, presenter.reviewFeedback));
  const showInThread = async (toolCallId: string) => {
    await vscode.commands.executeCommand(FOCUS_CHAT_COMMAND);
    presenter.revealToolCall(toolCallId);
  };
  let replays: ReplayCommand | null = null;
  const inspector = new InspectorFeature({
    extensionUri: context.extensionUri,
    frames,
    logger,
    conversation: () => inspectedConversation(presenter.currentSession, {
      review,
      permissionPolicy: environment.permissionPolicy ?? null,
      workspaceRoots: roots,
    }),
    inspectedReplay: () => replays?.inspectedFor(presenter.currentSession) ?? null,
    showInThread: (toolCallId) => void showInThread(toolCallId),
  });
  replays = new ReplayCommand({
    roots,
    inspector,
    logger,
    showReplay: (replay) => {
      presenter.openReplay(replay.session);
      void vscode.commands.executeCommand(FOCUS_CHAT_COMMAND);
    },
    showInThread: (toolCallId) => void showInThread(toolCallId),
  });
  context.subscriptions.push(inspector, replays);
  provider = new ChatViewProvider(context.extensionUri, () => presenter, logger);
  context.subscriptions.push(provider, vscode.window.registerWebviewViewProvider(VIEWS.chat, provider));
  context.subscriptions.push(new WaitingAttention(presenter, provider, logger));

  context.subscriptions.push(registerRegistryCommand(logger, (agentId) => presenter.selectAgent(agentId)));
  context.subscriptions.push(...registerPanelCommands({ presenter, agents: loadAgents, showLog: () => channel.show(), showTraffic: () => traffic.show() }));
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(SETTINGS.agents)) presenter.reloadAgents();
      // Running agents keep the priority they started with; the log says from when the new one applies.
      if (event.affectsConfiguration(SETTINGS.agentPriority)) logger.info(`[settings] ${SETTINGS.agentPriority} is ${readAgentPriority()}: agents started from now on, and the commands they run, use it`);
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      environment.trusted = true;
      void presenter.trustGranted();
    }),
  );
  if (vscode.workspace.getConfiguration().get<boolean>(SETTINGS.revealOnStartup)) {
    void vscode.commands.executeCommand(FOCUS_CHAT_COMMAND);
  }
  logger.info(`Tandem activated (${presenter.state().agents.length} agents, workspace ${roots()[0] ?? 'none'}, trusted ${environment.trusted})`);
}

export function deactivate(): void {
  // Everything is owned by context.subscriptions, which VS Code disposes (agents are stopped there).
}
