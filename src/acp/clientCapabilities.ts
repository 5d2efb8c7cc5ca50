import type * as acp from '@agentclientprotocol/sdk';

export interface OfferedServices {
  fs: boolean;
  terminals: boolean;
}

/**
 * What Tandem tells agents it can do. Only capabilities that really work are advertised:
 * an agent that believes the client serves `fs/*` will stop touching the disk itself.
 */
export function clientCapabilities(offered: OfferedServices): acp.ClientCapabilities {
  return {
    fs: { readTextFile: offered.fs, writeTextFile: offered.fs },
    terminal: offered.terminals,
  };
}

export const clientInfo = { name: 'tandem', title: 'Tandem', version: '0.1.0' } as const;
