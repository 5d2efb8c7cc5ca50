import * as acp from '@agentclientprotocol/sdk';
import type { AcpConnection } from '../acp/acpConnection';
import type { AgentDefinition } from '../agents/agentConfig';
import type { Logger } from '../util/logger';
import { apiKeyVariable } from './signIn';

/** The agent answered `initialize` with a protocol version Tandem does not speak: nothing after it would be understood. */
export class ProtocolVersionError extends Error {
  constructor(agentLabel: string, readonly agentVersion: unknown) {
    super(`${agentLabel} speaks ACP protocol version ${JSON.stringify(agentVersion)}, and Tandem speaks version ${acp.PROTOCOL_VERSION}: update whichever is older.`);
  }
}

/**
 * `initialize`, then the sign-in that needs no user: an API key the agent reads from the
 * environment (the preset's variable, or one an auth method names) is announced with authenticate.
 */
export async function initializeAgent(
  connection: AcpConnection,
  options: { agent: AgentDefinition; env: Record<string, string>; signInOffered: boolean; skipKeyAuth: boolean; log: Logger; initialized?: (response: acp.InitializeResponse) => void },
): Promise<acp.InitializeResponse> {
  const response = await connection.initialize({ terminalOutput: true, terminalAuth: options.signInOffered });
  options.log.info(`initialized ${response.agentInfo?.name ?? 'agent'} ${response.agentInfo?.version ?? ''} (protocol ${response.protocolVersion})`);
  if (response.protocolVersion !== acp.PROTOCOL_VERSION) throw new ProtocolVersionError(options.agent.label, response.protocolVersion);
  options.initialized?.(response);
  const auth = options.agent.authMethodWhenKeyInEnv;
  if (auth && (options.env[auth.envVar] ?? process.env[auth.envVar]) && response.authMethods?.some((method) => method.id === auth.methodId)) {
    await connection.authenticate(auth.methodId);
  }
  const keyMethod = options.skipKeyAuth ? undefined : response.authMethods?.find((method) => {
    const variable = apiKeyVariable(method);
    return variable !== null && variable !== auth?.envVar && Boolean(options.env[variable]);
  });
  if (keyMethod) await connection.authenticate(keyMethod.id);
  return response;
}
