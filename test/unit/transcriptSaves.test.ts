// When Tandem writes its transcripts: shortly after a change, but not while an agent streams (a
// write is every conversation, whole), unless a turn runs so long that the wait passes its bound.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { TranscriptSaver, type TranscriptsState, type TranscriptStorage } from '../../src/panel/transcripts';
import { scriptedPresenter } from '../support/sessionBuilders';
import { waitFor } from '../support/waitFor';

const empty: TranscriptsState = { open: [], activeTabId: null, closed: [] };

/** A storage that records each write with whether a turn was running when it came. */
function watchedStorage(running: () => boolean): TranscriptStorage & { writes: { state: TranscriptsState; running: boolean }[] } {
  const storage = {
    writes: [] as { state: TranscriptsState; running: boolean }[],
    read: () => undefined,
    write: (state: TranscriptsState) => void storage.writes.push({ state: structuredClone(state), running: running() }),
  };
  return storage;
}

describe('transcript writes', () => {
  test('a change is written after the delay; while busy it waits for the end, or 15 s at most', (t) => {
    t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
    let busy = false;
    let writes = 0;
    const saver = new TranscriptSaver({ read: () => undefined, write: () => void writes++ }, () => empty, { busy: () => busy, delayMs: 500 });
    t.after(() => saver.saveNow());
    saver.schedule();
    t.mock.timers.tick(500);
    assert.equal(writes, 1, 'idle: written after the delay');

    busy = true;
    saver.schedule();
    t.mock.timers.tick(5_000);
    assert.equal(writes, 1, 'not while a turn runs');
    busy = false;
    t.mock.timers.tick(500);
    assert.equal(writes, 2, 'written once the turn is over');

    busy = true;
    saver.schedule();
    t.mock.timers.tick(14_999);
    assert.equal(writes, 2);
    t.mock.timers.tick(501);
    assert.equal(writes, 3, 'a turn that never ends does not hold a change back more than 15 s');
    saver.saveNow();
    assert.equal(writes, 4, 'closing writes at once, busy or not');
  });

  test('in the presenter, nothing is written while the agent streams; the answer is written when its turn ends', async (t) => {
    let panel: ReturnType<typeof scriptedPresenter> | null = null;
    const storage = watchedStorage(() => panel?.session().turnView.running ?? false);
    panel = scriptedPresenter(t, { transcripts: storage });
    await panel.ready();
    const session = panel.session();
    const turn = panel.presenter.sendPrompt('slow');
    await waitFor(() => session.thread.lastAgentText().length > 0, 'the answer streaming');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    assert.deepEqual(storage.writes.filter((write) => write.running).length, 0, 'no write of the whole state while the agent streams');
    await session.cancel();
    await turn;
    const shown = session.thread.lastAgentText();
    const written = await waitFor(() => storage.writes.find((write) => JSON.stringify(write.state).includes(JSON.stringify(shown).slice(1, -1))), 'the streamed answer written after the turn');
    assert.equal(written.running, false);
  });
});
