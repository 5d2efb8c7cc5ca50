import type * as acp from '@agentclientprotocol/sdk';

export interface OfferedServices {
  fs: boolean;
  terminals: boolean;
  /** Display terminals that agents report in tool-call `_meta` are shown (Claude Code, Codex). */
  terminalOutput?: boolean;
  /** Login programs of `terminal` auth methods (and the legacy `_meta["terminal-auth"]`) are run. */
  terminalAuth?: boolean;
  /** Boolean config options are rendered as toggles (agents send them only to clients that say so). */
  booleanConfigOptions?: boolean;
  /** `elicitation/create` forms and links are shown and answered. */
  elicitation?: boolean;
  /** `notice` and `compaction_*` session updates are shown in the thread. */
  sessionNotices?: boolean;
  /** A subagent's messages are shown inside its tool call (Claude's `_meta["subagent-transcript"]`). */
  subagentTranscript?: boolean;
}

/**
 * What Tandem tells agents it can do. Only capabilities that really work are advertised:
 * an agent that believes the client serves `fs/*` will stop touching the disk itself.
 */
export function clientCapabilities(offered: OfferedServices): acp.ClientCapabilities {
  const meta: Record<string, boolean> = {};
  if (offered.terminalOutput) meta.terminal_output = true;
  if (offered.terminalAuth) meta['terminal-auth'] = true;
  if (offered.subagentTranscript) meta['subagent-transcript'] = true;
  const session: acp.ClientSessionCapabilities = {
    ...(offered.booleanConfigOptions ? { configOptions: { boolean: {} } } : {}),
    ...(offered.sessionNotices ? { notices: {}, compaction: {} } : {}),
  };
  return {
    fs: { readTextFile: offered.fs, writeTextFile: offered.fs },
    terminal: offered.terminals,
    ...(offered.terminalAuth ? { auth: { terminal: true } } : {}),
    ...(Object.keys(session).length > 0 ? { session } : {}),
    ...(offered.elicitation ? { elicitation: { form: {}, url: {} } } : {}),
    ...(Object.keys(meta).length > 0 ? { _meta: meta } : {}),
  };
}

export const clientInfo = { name: 'tandem', title: 'Tandem', version: '0.1.0' } as const;
