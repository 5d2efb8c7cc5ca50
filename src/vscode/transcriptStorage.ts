import type * as vscode from 'vscode';
import type { TranscriptsState, TranscriptStorage } from '../panel/transcripts';

const KEY = 'tandem.transcripts';

/** Tandem's record of conversations in this workspace's storage (outside the project). */
export function workspaceTranscripts(state: vscode.Memento): TranscriptStorage {
  return {
    read: () => state.get<TranscriptsState>(KEY),
    write: (value) => void state.update(KEY, value),
  };
}
