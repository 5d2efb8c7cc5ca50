import type { CDPSession, Page } from 'playwright-core';

/** A websocket frame the page received, its payload as text (binary frames decoded byte for byte). */
export interface ReceivedFrame {
  text: string;
}

export interface SocketFrames {
  /** The frames received since the recording started, in order. */
  readonly received: ReceivedFrame[];
  /** The number of frames the page sent meanwhile, and their characters. */
  readonly sent: { frames: number; chars: number };
  stop(): Promise<void>;
}

interface WebSocketFrameEvent {
  response: { opcode: number; payloadData: string };
}

/**
 * Records what `page` receives on its websockets (Chrome DevTools Protocol), which in code-server
 * is everything the extension host sends the window: webview messages, storage writes, status bar
 * entries. For checking what crosses to the browser, not how it is framed.
 */
export async function recordSocketFrames(page: Page): Promise<SocketFrames> {
  const cdp: CDPSession = await page.context().newCDPSession(page);
  const received: ReceivedFrame[] = [];
  const sent = { frames: 0, chars: 0 };
  const onReceived = ({ response }: WebSocketFrameEvent) => {
    received.push({ text: response.opcode === 2 ? Buffer.from(response.payloadData, 'base64').toString('latin1') : response.payloadData });
  };
  const onSent = ({ response }: WebSocketFrameEvent) => {
    sent.frames++;
    sent.chars += response.payloadData.length;
  };
  cdp.on('Network.webSocketFrameReceived', onReceived);
  cdp.on('Network.webSocketFrameSent', onSent);
  await cdp.send('Network.enable');
  return {
    received,
    sent,
    stop: async () => {
      cdp.off('Network.webSocketFrameReceived', onReceived);
      cdp.off('Network.webSocketFrameSent', onSent);
      await cdp.detach().catch(() => undefined);
    },
  };
}
