import type { HostToWebview, WebviewToHost } from '../src/contract/messages';

interface VsCodeApi {
  postMessage(message: WebviewToHost): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

export type PostToHost = (message: WebviewToHost) => void;

/** Small UI-only state (the composer draft) that should survive the view being hidden. */
export interface LocalState {
  draft: string;
  history: string[];
}

/** The panel's one line to its host; VS Code hands it out once per document. */
export interface HostChannel {
  post: PostToHost;
  onMessage(handler: (message: HostToWebview) => void): void;
  loadLocalState(): LocalState;
  saveLocalState(state: LocalState): void;
}

export function connectToHost(): HostChannel {
  const api = acquireVsCodeApi();
  return {
    post: (message) => api.postMessage(message),
    onMessage(handler) {
      window.addEventListener('message', (event: MessageEvent<HostToWebview>) => {
        // Only the host posts to this window; anything without our shape is ignored.
        if (event.data && typeof event.data === 'object' && typeof event.data.type === 'string') handler(event.data);
      });
    },
    loadLocalState() {
      const raw = api.getState() as Partial<LocalState> | undefined;
      return { draft: typeof raw?.draft === 'string' ? raw.draft : '', history: Array.isArray(raw?.history) ? raw.history.filter((item): item is string => typeof item === 'string').slice(-100) : [] };
    },
    saveLocalState: (state) => api.setState(state),
  };
}
