/**
 * The folders and logs the file-service unit tests play `fs/*` against, new for every test: a
 * workspace, a folder beside it (outside it) holding a secret, the editor's documents backed by
 * the disk, and what the service asked the user and recorded as changes.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DiskBackedDocuments } from './memoryDocuments';
import type { FsServiceSetup } from './pathEscapeCases';
import { beforeEachTest, onTestEnd, tempWorkspace } from './sessionBuilders';

export interface FsSandbox {
  readonly workspace: string;
  /** Beside the workspace, outside it: holds secret.txt, "top secret\n". */
  readonly outside: string;
  readonly documents: DiskBackedDocuments;
  /** Every question about a path outside the workspace, as `operation path`. */
  readonly asked: string[];
  readonly recorded: FsServiceSetup['recorded'];
}

/**
 * A sandbox made before each test of the calling file and removed after it; `beforeRemoval`
 * runs first then (e.g. to wake what a failing test left blocked on a pipe inside it).
 */
export function fsSandboxEachTest(prefix: string, beforeRemoval: () => void = () => undefined): FsSandbox {
  const sandbox: { -readonly [K in keyof FsSandbox]: FsSandbox[K] } = { workspace: '', outside: '', documents: new DiskBackedDocuments(), asked: [], recorded: [] };
  beforeEachTest((t) => {
    const root = tempWorkspace(t, prefix);
    onTestEnd(t, beforeRemoval);
    Object.assign(sandbox, { workspace: join(root, 'workspace'), outside: join(root, 'outside'), documents: new DiskBackedDocuments([join(root, 'workspace')]), asked: [], recorded: [] });
    mkdirSync(sandbox.workspace);
    mkdirSync(sandbox.outside);
    writeFileSync(join(sandbox.outside, 'secret.txt'), 'top secret\n');
  });
  return sandbox;
}
