import type { Page } from 'playwright-core';
import { recordSocketFrames } from '../test/support/socketFrames';

/** Webview message types, found in a frame's text as they are (status bar, storage and other frames are "other"). */
const KINDS = ['threadDeltas', 'conversationChanged', 'turnChanged', 'tabsChanged', 'reviewChanged', 'historyChanged', 'queueChanged', 'permissionsChanged', 'connectionChanged', 'agentsChanged', 'terminalDeltas', 'checkpointUpdate'];

const kindOf = (text: string) => KINDS.find((kind) => text.includes(`"${kind}"`) || text.includes(`\\"${kind}\\"`)) ?? 'other';

/** What the browser received on its sockets over `run`, by kind: frames and characters, and the start of every large frame of no known kind. */
export async function countWire(page: Page, run: () => Promise<void>): Promise<void> {
  const frames = await recordSocketFrames(page);
  try {
    await run();
  } finally {
    await frames.stop();
  }
  const byKind = new Map<string, { frames: number; chars: number }>();
  for (const { text } of frames.received) {
    const kind = byKind.get(kindOf(text)) ?? { frames: 0, chars: 0 };
    kind.frames++;
    kind.chars += text.length;
    byKind.set(kindOf(text), kind);
  }
  for (const [kind, { frames: count, chars }] of [...byKind].sort((a, b) => b[1].chars - a[1].chars)) {
    console.log(`${kind.padEnd(22)} ${String(count).padStart(6)} frames ${String(chars).padStart(9)} characters`);
  }
  console.log(`sent by the browser: ${frames.sent.frames} frames, ${frames.sent.chars} characters`);
  for (const { text } of frames.received) {
    if (kindOf(text) === 'other' && text.length > 1000) console.log(`  large: ${text.length} characters: ${text.replace(/[^\x20-\x7e]/g, '.').slice(0, 160)}`);
  }
}
