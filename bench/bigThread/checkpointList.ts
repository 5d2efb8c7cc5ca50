/**
 * A long conversation's checkpoint list in the panel (the real webview bundle in Chromium): at
 * every prompt the host sends every message's checkpoint state, and the newest message gets its
 * "Restore to here". Timed as bigThread times an append, from the message's postMessage to the end
 * of the frame painted after it, beside (alternated) the floor: a message that draws nothing.
 */
import type { HostToWebview } from '../../src/contract/messages';
import type { ThreadEntry } from '../../src/contract/viewModel';
import { openPanel } from '../../test/support/panelHarness';
import { panelState } from '../../test/support/panelFixtures';
import type { WorkbenchBrowser } from '../../test/support/workbench';
import { PANEL_VIEWPORT } from '../shared/context';
import { distribution, type Figures } from '../shared/figures';
import { timedPosts } from './panelTiming';

/** Prompts in the conversation before the timed ones. */
export const CONVERSATION_PROMPTS = 300;

function exchange(index: number): ThreadEntry[] {
  return [
    { kind: 'user', id: `u${index}`, text: `Question ${index}: what does step ${index} change?` },
    { kind: 'agentMessage', id: `a${index}`, text: `Step ${index} changes **one** file.\n\n- \`src/step${index}.ts\`\n- its test\n` },
  ];
}

function checkpointList(prompts: number): HostToWebview {
  const messages = Array.from({ length: prompts }, (_, index) => ({ entryId: `u${index}`, restorable: true, reason: null, lastRestored: false }));
  return { type: 'checkpointUpdate', update: { kind: 'list', checkpoints: { messages, redo: null } } };
}

/** `rounds` prompts after CONVERSATION_PROMPTS: the new message added (untimed), then its checkpoint list timed, and the floor beside it. */
export async function measureCheckpointLists(browser: WorkbenchBrowser, rounds: number): Promise<Figures> {
  const harness = await openPanel({ browser, viewport: PANEL_VIEWPORT });
  try {
    const { page } = harness;
    const entries = Array.from({ length: CONVERSATION_PROMPTS }, (_, index) => exchange(index)).flat();
    await timedPosts(page, [{ type: 'snapshot', state: panelState(entries) }, checkpointList(CONVERSATION_PROMPTS)], `[data-entry-id="u${CONVERSATION_PROMPTS - 1}"] .checkpoint-actions`);
    const listMs: number[] = [];
    const floorMs: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const prompt = CONVERSATION_PROMPTS + round;
      await timedPosts(page, [{ type: 'threadDeltas', deltas: exchange(prompt).map((entry) => ({ type: 'entryAdded', entry })) }], `[data-entry-id="a${prompt}"]`);
      const list = () => timedPosts(page, [checkpointList(prompt + 1)], `[data-entry-id="u${prompt}"] .checkpoint-actions`);
      const floor = () => timedPosts(page, [{ type: 'threadDeltas', deltas: [] }], null);
      if (round % 2 === 0) {
        listMs.push(await list());
        floorMs.push(await floor());
      } else {
        floorMs.push(await floor());
        listMs.push(await list());
      }
    }
    if (harness.pageErrors.length > 0) throw new Error(`checkpoint lists: the panel reported errors: ${harness.pageErrors.join('; ')}`);
    return { checkpointListMs: distribution(listMs, 'ms'), checkpointListFloorMs: distribution(floorMs, 'ms') };
  } finally {
    await harness.close();
  }
}

