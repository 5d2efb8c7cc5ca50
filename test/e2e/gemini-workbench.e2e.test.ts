// Tandem in a real VS Code with the real Gemini CLI (against a scripted model server on 127.0.0.1):
// code-server runs the packaged .vsix, Chromium drives the workbench. One code-server start serves
// the panel's suites, the byte-for-byte review suite, the checkpoint suite and the review-feedback
// suite; each lives in gemini-workbench/ and runs in the order registered here (the panel's first
// test needs a workspace Tandem was never used in). Each suite after the panel's starts from
// whatever the earlier ones left (suiteStart.ts): its own settings saved, no editor or pending
// change, a conversation of its own. A suite that reloads the window sets the panel's new frame on
// the shared workbench, for the suites after it.
import { after, before } from 'node:test';
import { registerCheckpointTests } from './gemini-workbench/checkpoints';
import { registerPanelReloadTests } from './gemini-workbench/panelReloads';
import { registerPanelTurnTests } from './gemini-workbench/panelTurns';
import { registerReviewBytesTests } from './gemini-workbench/reviewBytes';
import { registerReviewFeedbackTests } from './gemini-workbench/reviewFeedback';
import { openGeminiWorkbench, type GeminiWorkbench } from './gemini-workbench/workbench';

let shared: GeminiWorkbench | undefined;
const workbench = (): GeminiWorkbench => {
  if (!shared) throw new Error('the workbench did not open');
  return shared;
};

before(async () => {
  shared = await openGeminiWorkbench();
});

after(async () => {
  await shared?.tandem.close();
});

registerPanelTurnTests(workbench);
registerPanelReloadTests(workbench);
registerReviewBytesTests(workbench);
registerCheckpointTests(workbench);
registerReviewFeedbackTests(workbench);
