import * as acp from '@agentclientprotocol/sdk';

/** Serves `fs/*` for one session: the editor's buffers first, then the disk. */
export interface FsPort {
  readTextFile(params: acp.ReadTextFileRequest, signal?: AbortSignal): Promise<acp.ReadTextFileResponse>;
  writeTextFile(params: acp.WriteTextFileRequest, signal?: AbortSignal): Promise<acp.WriteTextFileResponse>;
}

/** Serves `terminal/*` for one session with real processes. */
export interface TerminalPort {
  create(params: acp.CreateTerminalRequest, signal?: AbortSignal): Promise<acp.CreateTerminalResponse>;
  output(params: acp.TerminalOutputRequest): Promise<acp.TerminalOutputResponse>;
  waitForExit(params: acp.WaitForTerminalExitRequest, signal?: AbortSignal): Promise<acp.WaitForTerminalExitResponse>;
  kill(params: acp.KillTerminalRequest): Promise<acp.KillTerminalResponse>;
  release(params: acp.ReleaseTerminalRequest): Promise<acp.ReleaseTerminalResponse>;
}

/** What the client side answers and receives; one implementation per session host. */
export interface ClientPorts {
  /** Called in arrival order; must not await before applying, so updates stay ordered. */
  sessionUpdate(notification: acp.SessionNotification): void;
  requestPermission(params: acp.RequestPermissionRequest, signal: AbortSignal): Promise<acp.RequestPermissionResponse>;
  /** null: `fs/*` is not offered (and not advertised). */
  fs: FsPort | null;
  /** null: `terminal/*` is not offered (and not advertised). */
  terminals: TerminalPort | null;
  /** null: `elicitation/*` is not offered (and not advertised). */
  elicitation?: ElicitationPort | null;
}

/** Questions the agent asks the user: forms and links (`elicitation/create`, `elicitation/complete`). */
export interface ElicitationPort {
  create(params: acp.CreateElicitationRequest, signal: AbortSignal): Promise<acp.CreateElicitationResponse>;
  complete(params: acp.CompleteElicitationNotification): void;
}

/**
 * The port that serves `method`, or the "method not found" an agent gets for calling what this
 * client does not offer (not advertised, or not offered to that session): the one guard for both.
 */
export function offered<T>(port: T | null | undefined, method: string): T {
  if (!port) throw acp.RequestError.methodNotFound(method);
  return port;
}
