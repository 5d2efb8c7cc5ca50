import type * as acp from '@agentclientprotocol/sdk';

/**
 * What Tandem tells agents it can do. Only capabilities that really work are advertised:
 * an agent that believes the client serves `fs/*` will stop touching the disk itself.
 */
export function clientCapabilities(): acp.ClientCapabilities {
  return {
    fs: { readTextFile: false, writeTextFile: false },
    terminal: false,
  };
}

export const clientInfo = { name: 'tandem', title: 'Tandem', version: '0.1.0' } as const;
