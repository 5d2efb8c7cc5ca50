import * as acp from '@agentclientprotocol/sdk';
import type { FsPort, TerminalPort } from '../acp/clientPorts';
import type { FileService } from '../files/fileService';
import { ServiceError } from '../files/serviceError';
import type { CommandService } from '../terminals/terminalService';

/**
 * ACP v1's `fs/*` and `terminal/*` as thin adapters over the editor services: requests are
 * unpacked into the services' own terms, answers and refusals packed back into ACP's. Another
 * protocol (MCP, ACP v2) is another adapter over the same services.
 */

/** A service's refusal as the JSON-RPC error ACP v1 agents expect; anything else as it is. */
export function asRequestError(error: unknown): unknown {
  if (!(error instanceof ServiceError)) return error;
  switch (error.kind) {
    case 'notFound': return acp.RequestError.resourceNotFound(typeof error.data?.path === 'string' ? error.data.path : undefined);
    case 'invalid': return acp.RequestError.invalidParams(error.data, error.message);
    case 'conflict': return acp.RequestError.invalidRequest(error.data, error.message);
    case 'failed': return acp.RequestError.internalError(error.data, error.message);
    case 'cancelled': return acp.RequestError.requestCancelled();
  }
}

async function served<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw asRequestError(error);
  }
}

/**
 * `fs/*` over a file service. `missingFileReadsAsEmpty`: a read of a file that does not exist is
 * answered with empty text instead of the spec's "resource not found", for agents that can only
 * create files that way (see agentQuirks).
 */
export function acpFsPort(files: FileService, missingFileReadsAsEmpty: () => boolean): FsPort {
  return {
    readTextFile: (params, signal) => served(async () => {
      try {
        return { content: await files.read({ path: params.path, line: params.line, limit: params.limit }, signal) };
      } catch (error) {
        if (error instanceof ServiceError && error.kind === 'notFound' && missingFileReadsAsEmpty()) return { content: '' };
        throw error;
      }
    }),
    writeTextFile: (params, signal) => served(async () => {
      await files.write(params.path, params.content, signal);
      return {};
    }),
  };
}

/** `terminal/*` over a command service. */
export function acpTerminalPort(commands: CommandService): TerminalPort {
  return {
    create: (params, signal) => served(async () => ({
      terminalId: await commands.start({ command: params.command, args: params.args ?? [], env: params.env ?? [], cwd: params.cwd ?? null, outputByteLimit: params.outputByteLimit ?? null }, signal),
    })),
    output: (params) => served(async () => {
      const { output, truncated, exitStatus } = await commands.output(params.terminalId);
      return { output, truncated, ...(exitStatus ? { exitStatus } : {}) };
    }),
    waitForExit: (params, signal) => served(() => commands.waitForExit(params.terminalId, signal)),
    kill: (params) => served(async () => {
      await commands.kill(params.terminalId);
      return {};
    }),
    release: (params) => served(async () => {
      await commands.release(params.terminalId);
      return {};
    }),
  };
}
