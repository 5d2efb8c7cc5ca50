/** A restore's plan, file by file, as the checkpoints feature makes it and the preview shows it. Plain data: src/contract publishes it. */

/** 'restore': the file goes back to earlier content; 'create': it was deleted since; 'delete': it was created since. */
export type RestoreFileAction = 'restore' | 'create' | 'delete';

export interface RestoreFileView {
  path: string;
  /** Relative to the workspace, for display. */
  label: string;
  action: RestoreFileAction;
  /** Lines the restore adds and removes (0 and 0 for content that is not text). */
  added: number;
  removed: number;
  binary: boolean;
  /** Why the file may hold the user's own work (a hand edit, unsaved text); null when it holds only what Tandem saw. */
  handEdit: string | null;
  /** Anything else worth knowing before the restore (a folder it creates again). */
  note: string | null;
}
