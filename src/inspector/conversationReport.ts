import type { Frame } from '../wire/frame';
import { deliveryMarks } from './deliveryCheck';
import { fidelityReport } from './fidelityReport';
import { type FidelityReport } from './fidelityReportShape';
import { buildFrameIndex } from './frameIndex';
import type { InspectedConversation } from './inspectedConversation';

/** The fidelity report of one conversation from its frames, its changed files and the grants on both sides. */
export async function conversationReport(conversation: InspectedConversation, frames: readonly Frame[]): Promise<FidelityReport> {
  const { projectRules, tandemGrants } = conversation.permissions();
  const delivery = await deliveryMarks(frames, buildFrameIndex(frames));
  return fidelityReport({
    frames,
    agentLabel: conversation.label,
    workspaceRoots: conversation.workspaceRoots,
    files: conversation.files(),
    projectRules,
    tandemGrants,
    deliveryMarks: delivery,
  });
}
