import type { HostToInspector, InspectorToHost } from '../../src/contract/inspectorView';

interface VsCodeApi {
  postMessage(message: InspectorToHost): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

export type PostToInspectorHost = (message: InspectorToHost) => void;

/** The inspector's one line to its host; VS Code hands it out once per document. */
export function connectInspector(onMessage: (message: HostToInspector) => void): PostToInspectorHost {
  const api = acquireVsCodeApi();
  window.addEventListener('message', (event: MessageEvent<HostToInspector>) => {
    // Only the host posts to this window; anything without our shape is ignored.
    if (event.data && typeof event.data === 'object' && typeof event.data.type === 'string') onMessage(event.data);
  });
  return (message) => api.postMessage(message);
}
