import type { WebviewToHost } from '../contract/messages';

export type WebviewMessageType = WebviewToHost['type'];
export type WebviewMessage<T extends WebviewMessageType> = Extract<WebviewToHost, { type: T }>;

/**
 * One handler per webview message type. Each part of the panel offers the handlers of its own
 * messages; the presenter's map of them all is checked by the compiler to miss no type.
 */
export type MessageHandlers<T extends WebviewMessageType = WebviewMessageType> = {
  readonly [K in T]: (message: WebviewMessage<K>) => void | Promise<void>;
};

export async function dispatchMessage(handlers: MessageHandlers, message: WebviewToHost): Promise<void> {
  // TypeScript cannot tie `handlers[message.type]` to `message`'s own type; the mapped type does.
  const handler = handlers[message.type] as (message: WebviewToHost) => void | Promise<void>;
  await handler(message);
}
