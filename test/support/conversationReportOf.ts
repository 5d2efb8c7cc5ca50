import assert from 'node:assert/strict';
import type { Frame } from '../../src/wire/frame';
import type { SessionController } from '../../src/conversation/sessionController';
import { conversationFrames } from '../../src/inspector/conversationFrames';
import { conversationReport } from '../../src/inspector/conversationReport';
import type { FidelityReport } from '../../src/inspector/fidelityReportShape';
import { buildFrameIndex } from '../../src/inspector/frameIndex';
import { inspectedConversation } from '../../src/inspector/panel/inspectedConversation';
import { MemoryGrantStore, PermissionPolicy } from '../../src/permissions/permissionPolicy';
import { readProjectRules } from '../../src/permissions/projectRules';
import type { ChangeLedger } from '../../src/review/changeLedger';
import { ledgerReviewSource } from './ledgerReviewSource';

/** The report as "Tandem: Show Fidelity Report" builds it for this conversation, from the window's frames. */
export async function reportOf(session: SessionController, all: readonly Frame[], ledger: ChangeLedger, workspace: string): Promise<{ report: FidelityReport; own: Frame[] }> {
  const permissionPolicy = new PermissionPolicy({ workspaceRoots: () => [workspace], autoAllowKinds: () => [], store: new MemoryGrantStore(), projectRules: () => readProjectRules([workspace]) });
  const conversation = inspectedConversation(session, { review: ledgerReviewSource(ledger, workspace), permissionPolicy, workspaceRoots: () => [workspace] });
  assert.ok(conversation, 'the conversation opened a session');
  const own = conversationFrames(all, buildFrameIndex(all), conversation.sessionIds);
  return { report: await conversationReport(conversation, own), own };
}

