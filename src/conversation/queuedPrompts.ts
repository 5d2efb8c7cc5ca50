/**
 * What a prompt carries beside its text (`@` mentions, pasted images), and the messages the
 * conversation queues while a turn runs. Plain data: src/contract publishes it to the webview.
 */

export const mentionKinds = ['file', 'folder', 'selection'] as const;
export type MentionKind = (typeof mentionKinds)[number];

/** Something `@` can attach to a prompt. */
export interface MentionView {
  kind: MentionKind;
  /** What the composer shows after `@`. */
  label: string;
  /** Absolute path. */
  path: string;
  /** Relative path or the selection's lines, for the completion list. */
  detail: string;
  /** 1-based lines of a selection. */
  startLine: number | null;
  endLine: number | null;
  /** The file is open in an editor (shown first). */
  open: boolean;
}

export const promptImageTypes = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

export interface PromptImageView {
  mimeType: (typeof promptImageTypes)[number];
  /** Base64 without the data: prefix. */
  data: string;
}

/** A message typed while a turn ran; the host sends it when the agent is done, panel shown or not. */
export interface QueuedPromptView {
  id: string;
  text: string;
  mentions: MentionView[];
  images: PromptImageView[];
}

export interface PromptQueueView {
  items: QueuedPromptView[];
  /** The user stopped the agent (or it stopped working): nothing goes out until they send again or pick Send now. */
  paused: boolean;
  /** A turn runs and the agent takes messages into it (`_session/steering`): each queued one can be steered. */
  steerable?: boolean;
}
