/**
 * Checkpoints as the panel shows them: every user message is a point the project (and the
 * conversation) can go back to. Plain data shared by the host and the webview.
 */
import { z } from 'zod';
import type { RestoreFileView } from '../checkpoints/restoreFiles';

export type { RestoreFileAction, RestoreFileView } from '../checkpoints/restoreFiles';

/** What a restore brings back: the files, the conversation (in a new tab), or both. */
export const restoreScopes = ['code', 'conversation', 'both'] as const;
export type RestoreScope = (typeof restoreScopes)[number];

/** A user message of the conversation in front: restorable with its checkpoint, or not, with the reason. */
export interface MessageCheckpointView {
  entryId: string;
  /** False once the checkpoint's copies were dropped to stay within the storage bound. */
  restorable: boolean;
  /** Why it cannot be restored, in one sentence; null when it can. */
  reason: string | null;
  /** This message is the one the last restore went back to: "Redo restore" sits on it. */
  lastRestored: boolean;
}

export interface CheckpointsView {
  messages: MessageCheckpointView[];
  /** A restore that "Redo restore" can take back, described for its button's tooltip; null when none. */
  redo: string | null;
}

export const emptyCheckpoints: CheckpointsView = { messages: [], redo: null };

export interface CheckpointPreviewView {
  previewId: string;
  /** The message restored to; null for "Redo restore". */
  entryId: string | null;
  title: string;
  files: RestoreFileView[];
  /** Files the restore leaves as they are, each with its sentence. */
  problems: string[];
  /** Set when nothing can be restored, with the reason; `files` is then empty. */
  error: string | null;
  /** How the conversation would go back; null when only the code can (Redo restore). */
  conversation: string | null;
}

export type CheckpointUpdate =
  | { kind: 'list'; checkpoints: CheckpointsView }
  /** The preview the webview asked for; null closes the one shown. */
  | { kind: 'preview'; preview: CheckpointPreviewView | null };

/** Host -> webview: one message type for checkpoints, for the panel's union. */
export type CheckpointHostMessage = { type: 'checkpointUpdate'; update: CheckpointUpdate };

const id = z.string().min(1).max(200);

export const checkpointActionSchema = z.discriminatedUnion('kind', [
  /** Compute what "Restore to here" on this user message would change. */
  z.object({ kind: z.literal('preview'), entryId: id }),
  z.object({ kind: z.literal('previewRedo') }),
  /** `keepMine`: files the user keeps as they are now (their hand edits). */
  z.object({ kind: z.literal('restore'), previewId: id, scope: z.enum(restoreScopes), keepMine: z.array(z.string().min(1).max(4096)).max(10_000) }),
  z.object({ kind: z.literal('dismiss'), previewId: id }),
]);

export type CheckpointAction = z.infer<typeof checkpointActionSchema>;

/** Webview -> host messages of checkpoints, spread into the panel's union. */
export const checkpointMessageSchemas = [
  z.object({ type: z.literal('checkpointAction'), action: checkpointActionSchema }),
] as const;

export type CheckpointActionMessage = z.infer<(typeof checkpointMessageSchemas)[number]>;
