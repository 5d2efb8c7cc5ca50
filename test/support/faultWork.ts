/** What the fault agent (faultAgent.ts) is asked to do in a turn: `work <json>`. */
export interface FaultWork {
  /** Numbered text chunks streamed first. */
  chunks: number;
  /** Files written next, each announced as an edit tool call before it is written. */
  files: { path: string; content: string; via: 'disk' | 'fs' }[];
  /** A permission asked last. */
  permission: boolean;
}

/** The text of chunk `index`, unique in a turn so a lost or repeated chunk shows. */
export const chunkText = (index: number) => `chunk-${index} `;
