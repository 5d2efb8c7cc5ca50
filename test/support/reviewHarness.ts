import type * as acp from '@agentclientprotocol/sdk';
import { FrameStore } from '../../src/acp/frames';
import type { AgentDefinition } from '../../src/agents/agentConfig';
import type { FsSessionContext } from '../../src/workspace/sessionContext';
import { createSessionFiles } from '../../src/workspace/sessionFiles';
import { acpFsPort } from '../../src/workspace/acpV1Ports';
import type { FsPort } from '../../src/acp/clientPorts';
import type { FileService } from '../../src/files/fileService';
import { folderScope } from '../../src/workspace/workspaceScope';
import { ChangeFeed } from '../../src/review/changeFeed';
import { ChangeLedger } from '../../src/review/changeLedger';
import { SessionController } from '../../src/conversation/sessionController';
import { Emitter } from '../../src/util/emitter';
import { silentLogger } from '../../src/util/logger';
import { ReviewWriter } from '../../src/review/reviewWriter';
import { DiskBackedDocuments } from './memoryDocuments';
import { scriptedEnvironment, scriptedSession, type TestScope } from './sessionBuilders';

/**
 * Tandem's real per-session fs service and change ledger, over a disk-backed stand-in for the
 * editor's documents whose changes reach the ledger as the editor's do: what the extension
 * wires up, minus VS Code.
 */
export function reviewedFiles(workspace: string) {
  const documents = new DiskBackedDocuments([workspace]);
  const ledger = new ChangeLedger();
  const feed = new ChangeFeed(ledger);
  documents.onDidChange(({ path, text }) => feed.documentChanged(path, text));
  const files = (context: FsSessionContext) => createSessionFiles(context, {
    roots: () => [workspace],
    documents,
    decisions: { allowOutsideRoots: async () => false, overwriteUserChanges: async () => false, allowExecutionControlWrite: async () => true },
    changes: feed,
  });
  const createFs = (context: FsSessionContext) => agentFs(files(context));
  return { documents, ledger, feed, files, createFs };
}

/** A file service as an ACP agent reaches it (`fs/*` through the ACP v1 adapter), ended with the service. */
export function agentFs(service: FileService): FsPort & { dispose(): void } {
  return { ...acpFsPort(service, () => false), dispose: () => service.dispose() };
}

/**
 * Review of an agent that writes the disk itself: its session updates are sent by hand into the
 * real session fs (disk tracker included), and undo/redo results are written by the product's
 * review writer. `notices` collects what the session tells the user.
 */
export function diskReview(workspace: string) {
  const { documents, ledger, feed, createFs } = reviewedFiles(workspace);
  const updates = new Emitter<acp.SessionUpdate>();
  const notices: string[] = [];
  const fs = createFs({
    key: 'session-1',
    cwd: workspace,
    thread: { findLastToolCall: () => undefined, addNotice: (_severity, text) => notices.push(text) },
    logger: silentLogger,
    onUpdate: updates.event,
    onPermissionRequest: () => ({ dispose: () => undefined }),
    agentInfo: () => null,
  });
  const writer = new ReviewWriter(ledger, documents);
  return { documents, ledger, feed, fs, notices, writer, send: (update: acp.SessionUpdate) => updates.fire(update) };
}

/** Scripted-agent sessions of one workspace sharing one ledger, as a window's conversations do; `env`: the agent's SCRIPTED_* options. */
export function reviewedScriptedWorkspace(t: TestScope, env: Record<string, string> = {}) {
  const environment = scriptedEnvironment(t);
  const files = reviewedFiles(environment.workspaceRoot);
  environment.workspace = () => folderScope(environment.workspaceRoot, { files: files.files });
  return { ...files, folder: environment.workspaceRoot, session: () => scriptedSession(t, { environment, env }) };
}

/** A session whose fs requests are served by `reviewedFiles`; undo and redo go through the product's review writer. */
export function reviewedSession(definition: AgentDefinition, workspace: string) {
  const { documents, ledger, files } = reviewedFiles(workspace);
  const writer = new ReviewWriter(ledger, documents);
  const frames = new FrameStore();
  const session = new SessionController(definition, {
    workspace: () => folderScope(workspace, { files }),
    trusted: true,
    frames,
    logger: silentLogger,
  });
  return { session, documents, ledger, frames, writer };
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
