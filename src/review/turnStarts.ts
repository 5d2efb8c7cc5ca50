import type * as acp from '@agentclientprotocol/sdk';
import type { ThreadDelta } from '../thread/entries';
import { DisposableStore, type Disposable } from '../util/disposable';

type Listen<T> = (listener: (value: T) => void) => Disposable;

/**
 * Turns about to start: a user message the user sent, as the thread shows it. Not a replayed
 * one (a loaded session's `user_message_chunk`, a restored thread): those come by the hundred
 * and start nothing. A sent message is told at the end of the current task, which runs before
 * the prompt can go out (sending it waits on at least one promise).
 */
export function onTurnStart(onDelta: Listen<ThreadDelta>, onUpdate: Listen<acp.SessionUpdate>): Listen<void> {
  return (listener) => {
    const store = new DisposableStore();
    // Until the end of the current task: a user message was added, or a replay is under way.
    let seen: 'nothing' | 'message' | 'replay' = 'nothing';
    const settle = () => {
      if (seen === 'message' && !store.isDisposed) listener();
      seen = 'nothing';
    };
    const note = (what: 'message' | 'replay') => {
      if (seen === 'nothing') queueMicrotask(settle);
      if (seen !== 'replay') seen = what;
    };
    store.add(onDelta((delta) => {
      if (delta.type === 'threadCleared') note('replay');
      else if (delta.type === 'entryAdded' && delta.entry.kind === 'user') note('message');
    }));
    // The thread applies a replayed chunk just before the session's update is told.
    store.add(onUpdate((update) => {
      if (update.sessionUpdate === 'user_message_chunk') note('replay');
    }));
    return store;
  };
}
