import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import type { DemoTurn } from './demoSession';

/** The shipped sample project names itself so; the tour changes no other folder. */
export const SAMPLE_PACKAGE_NAME = 'tandem-sample-workspace';

/**
 * What the session's folder is: the sample workspace (a copy `npm start` makes), Tandem's own
 * repository (whose scripts/sample-workspace must never be edited in place), or anything else.
 */
export type WorkspaceKind = 'sample' | 'tandem' | 'other';

export function workspaceKind(cwd: string): WorkspaceKind {
  if (existsSync(join(cwd, 'src', 'demo-agent'))) return 'tandem';
  try {
    const manifest = JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8')) as { name?: unknown };
    return manifest.name === SAMPLE_PACKAGE_NAME ? 'sample' : 'other';
  } catch {
    return 'other';
  }
}

/** The absolute path of a workspace file; the demo only names fixed paths, and none may leave the folder. */
export function pathIn(cwd: string, file: string): string {
  const path = join(cwd, file);
  const inside = relative(cwd, path);
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) throw new Error(`${file} is outside the session folder`);
  return path;
}

/**
 * A file's text, through the client when it serves `fs/read_text_file` (so unsaved editor
 * buffers count), else from disk; null when the file does not exist.
 */
export async function readWorkspaceFile(turn: DemoTurn, file: string): Promise<string | null> {
  const path = pathIn(turn.session.cwd, file);
  if (!existsSync(path)) return null;
  if (!turn.session.offers.readFile) return readFileSync(path, 'utf8');
  const answer = await turn.client.request(acp.methods.client.fs.readTextFile, { sessionId: turn.session.id, path });
  return answer.content;
}

/**
 * Writes through the client when it serves `fs/write_text_file`, so it can hold the change for
 * review; otherwise on disk, as agents that edit files themselves do.
 */
export async function writeWorkspaceFile(turn: DemoTurn, file: string, text: string): Promise<void> {
  const path = pathIn(turn.session.cwd, file);
  if (turn.session.offers.writeFile) {
    await turn.client.request(acp.methods.client.fs.writeTextFile, { sessionId: turn.session.id, path, content: text });
    return;
  }
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/**
 * ACP has no request for deleting a file, so the agent removes it itself, inside a delete tool
 * call the client watches: the client compares the file before and after, and can restore it.
 */
export function removeWorkspaceFile(cwd: string, file: string): void {
  rmSync(pathIn(cwd, file), { force: true });
}
