import type * as vscode from 'vscode';
import { redactJson } from '../redaction/redact';
import type { TranscriptsState, TranscriptStorage } from '../panel/transcripts';
import { STORAGE_KEYS } from '../contract/ids';

/**
 * Tandem's record of conversations in this workspace's storage (outside the project). What is
 * written to disk has its credentials removed; so has what is read, for records saved before.
 */
export function workspaceTranscripts(state: vscode.Memento): TranscriptStorage {
  return {
    read: () => {
      const saved = state.get<TranscriptsState>(STORAGE_KEYS.transcripts);
      return saved === undefined ? undefined : redactJson(saved);
    },
    write: (value) => void state.update(STORAGE_KEYS.transcripts, redactJson(value)),
  };
}
