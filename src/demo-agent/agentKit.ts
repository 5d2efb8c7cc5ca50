import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';

/**
 * Small building blocks for the scripted agents that ship with Tandem (the demo agent) and
 * that its tests use. Both are real ACP agents on the SDK's agent side, over stdio.
 */

export function stdioStream(): acp.Stream {
  return acp.ndJsonStream(
    Writable.toWeb(process.stdout) as WritableStream<Uint8Array>,
    Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>,
  );
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });
}

/** Tracks `session/cancel` per session so a running prompt can stop between steps. */
export class CancelFlags {
  private readonly controllers = new Map<string, AbortController>();

  begin(sessionId: string): AbortSignal {
    const controller = new AbortController();
    this.controllers.set(sessionId, controller);
    return controller.signal;
  }

  cancel(sessionId: string): void {
    this.controllers.get(sessionId)?.abort();
  }
}

export function update(client: acp.AgentContext, sessionId: string, sessionUpdate: acp.SessionUpdate): Promise<void> {
  return client.notify(acp.methods.client.session.update, { sessionId, update: sessionUpdate });
}

/** Streams text as `agent_message_chunk`s of `chunkSize` characters (never splitting a code point). */
export async function streamText(
  client: acp.AgentContext,
  sessionId: string,
  text: string,
  options: { chunkSize?: number; delayMs?: number; signal?: AbortSignal; kind?: 'agent_message_chunk' | 'agent_thought_chunk' } = {},
): Promise<boolean> {
  const chunkSize = options.chunkSize ?? 12;
  const kind = options.kind ?? 'agent_message_chunk';
  const characters = Array.from(text);
  for (let start = 0; start < characters.length; start += chunkSize) {
    if (options.signal?.aborted) return false;
    const piece = characters.slice(start, start + chunkSize).join('');
    await update(client, sessionId, { sessionUpdate: kind, content: { type: 'text', text: piece } });
    if (options.delayMs) await sleep(options.delayMs, options.signal);
  }
  return !options.signal?.aborted;
}

export function promptText(prompt: readonly acp.ContentBlock[]): string {
  return prompt.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n').trim();
}

export const PERMISSION_OPTIONS: acp.PermissionOption[] = [
  { optionId: 'allow-once', name: 'Allow', kind: 'allow_once' },
  { optionId: 'allow-always', name: 'Always allow', kind: 'allow_always' },
  { optionId: 'reject-once', name: 'Reject', kind: 'reject_once' },
];
