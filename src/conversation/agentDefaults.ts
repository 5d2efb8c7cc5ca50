import type { AcpConnection } from '../acp/acpConnection';
import type { AgentDefinition } from '../agents/agentConfig';
import type { ThreadModel } from '../thread/threadModel';
import { errorMessage } from '../redaction/redactedLog';
import type { OpenedSession } from './sessionOpening';
import { SETTINGS } from '../util/ids';

/** The mode and config options from tandem.agents, applied once a new session is open. */
export async function applyAgentDefaults(connection: AcpConnection, session: OpenedSession, agent: AgentDefinition, thread: ThreadModel): Promise<void> {
  const { defaultMode, defaultConfigOptions } = agent;
  try {
    if (defaultMode && session.modes?.availableModes.some((mode) => mode.id === defaultMode)) {
      await connection.setMode(session.sessionId, defaultMode);
      thread.setFact('currentModeId', defaultMode);
    }
    // An agent without config options (Gemini CLI) takes a default `model` through its legacy models (ConversationFeature).
    for (const [configId, value] of session.configOptions?.length ? Object.entries(defaultConfigOptions) : []) {
      const response = await connection.setConfigOption(session.sessionId, configId, value);
      thread.setFact('configOptions', response.configOptions);
    }
  } catch (error) {
    thread.addNotice('warning', `A default from ${SETTINGS.agents}.${agent.id} was not accepted: ${errorMessage(error)}`, ['showLog']);
  }
}
