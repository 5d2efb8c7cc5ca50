import type { CheckpointStore } from './checkpoints';
import type { RestorePlan } from './checkpointsPlan';
import type { CheckpointRecorder } from './checkpointsRecorder';
import type { RestoreOutcome } from './checkpointsRestore';

/** The checkpoints of the workspace, as the editor side provides them. */
export interface CheckpointService {
  readonly store: CheckpointStore;
  readonly recorder: CheckpointRecorder;
  plan(checkpointId: string): Promise<RestorePlan>;
  restore(plan: RestorePlan, keepMine: ReadonlySet<string>, label: string): Promise<RestoreOutcome>;
  /** A path as the user reads it. */
  label(path: string): string;
}
