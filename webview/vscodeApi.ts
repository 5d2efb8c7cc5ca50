import type { HostToWebview, WebviewToHost } from '../src/contract/messages';

interface VsCodeApi {
  postMessage(message: WebviewToHost): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

const api = acquireVsCodeApi();

export function postToHost(message: WebviewToHost): void {
  api.postMessage(message);
}

/** Small UI-only state (the composer draft) that should survive the view being hidden. */
export interface LocalState {
  draft: string;
  history: string[];
}

export function loadLocalState(): LocalState {
  const raw = api.getState() as Partial<LocalState> | undefined;
  return { draft: typeof raw?.draft === 'string' ? raw.draft : '', history: Array.isArray(raw?.history) ? raw.history.filter((item): item is string => typeof item === 'string').slice(-100) : [] };
}

export function saveLocalState(state: LocalState): void {
  api.setState(state);
}

export function onHostMessage(handler: (message: HostToWebview) => void): void {
  window.addEventListener('message', (event: MessageEvent<HostToWebview>) => {
    // Only the host posts to this window; anything without our shape is ignored.
    if (event.data && typeof event.data === 'object' && typeof event.data.type === 'string') handler(event.data);
  });
}
