import { STORAGE_KEYS } from '../contract/ids';

/**
 * Whether the user has used Tandem in this workspace. Until they have, no agent starts on its
 * own: a folder someone else prepared may name any program as its agent, and opening the folder
 * (or trusting it) must not run that program before the user asked Tandem for something here.
 */
export interface WorkspaceUse {
  readonly used: boolean;
  /** The user did something in Tandem here: sent a message, picked an agent, restarted, signed in. */
  markUsed(): void;
}

/** The editor's storage for this workspace (VS Code's workspaceState), which the project's files cannot set. */
export interface WorkspaceMemory {
  get(key: string): unknown;
  update(key: string, value: unknown): PromiseLike<void>;
}

export class RememberedWorkspaceUse implements WorkspaceUse {
  private usedHere: boolean;

  constructor(private readonly memory: WorkspaceMemory) {
    this.usedHere = memory.get(STORAGE_KEYS.usedInWorkspace) === true;
  }

  get used(): boolean {
    return this.usedHere;
  }

  markUsed(): void {
    if (this.usedHere) return;
    this.usedHere = true;
    void this.memory.update(STORAGE_KEYS.usedInWorkspace, true);
  }
}
