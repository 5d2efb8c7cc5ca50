import { FrameStore } from '../../src/acp/frames';
import type { AgentDefinition } from '../../src/agents/agentConfig';
import type { FsSessionContext } from '../../src/fs/fsContext';
import { createSessionFs } from '../../src/fs/sessionFs';
import { ChangeFeed } from '../../src/review/changeFeed';
import { ChangeLedger } from '../../src/review/changeLedger';
import { SessionController } from '../../src/conversation/sessionController';
import { silentLogger } from '../../src/util/logger';
import { DiskBackedDocuments } from './memoryDocuments';

/**
 * Tandem's real per-session fs service and change ledger, over a disk-backed stand-in for the
 * editor's documents whose changes reach the ledger as the editor's do: what the extension
 * wires up, minus VS Code.
 */
export function reviewedFiles(workspace: string) {
  const documents = new DiskBackedDocuments();
  const ledger = new ChangeLedger();
  const feed = new ChangeFeed(ledger);
  documents.onDidChange(({ path, text }) => feed.documentChanged(path, text));
  const createFs = (context: FsSessionContext) => createSessionFs(context, {
    roots: () => [workspace],
    documents,
    decisions: { allowOutsideRoots: async () => false, overwriteUserChanges: async () => false },
    changes: feed,
  });
  return { documents, ledger, feed, createFs };
}

/** A session whose fs requests are served by `reviewedFiles`. */
export function reviewedSession(definition: AgentDefinition, workspace: string) {
  const { documents, ledger, createFs } = reviewedFiles(workspace);
  const frames = new FrameStore();
  const session = new SessionController(definition, {
    workspaceRoot: workspace,
    trusted: true,
    frames,
    logger: silentLogger,
    services: { createFs },
  });
  return { session, documents, ledger, frames };
}

/** Answers every permission the agent asks during `turn` with its allow-once option. */
export async function allowingPermissions(session: SessionController, turn: Promise<void>): Promise<void> {
  let done = false;
  void turn.finally(() => {
    done = true;
  });
  const deadline = Date.now() + 120_000;
  while (!done && Date.now() < deadline) {
    const asking = session.thread.findLastToolCall((tool) => tool.permission !== null);
    const option = asking?.permission?.options.find((candidate) => candidate.kind === 'allow_once');
    if (asking?.permission && option) session.answerPermission(asking.permission.requestId, option.optionId);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await turn;
}
