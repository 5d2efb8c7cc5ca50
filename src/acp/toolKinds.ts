/**
 * ACP's tool kinds, the one list (package.json's `tandem.permissions.autoAllow` enum is checked
 * against it). Plain data, no SDK: src/contract publishes it to the webview.
 */
export const toolKinds = ['read', 'edit', 'delete', 'move', 'search', 'execute', 'think', 'fetch', 'switch_mode', 'other'] as const;

export type ToolKindView = (typeof toolKinds)[number];

/** Kinds whose tool calls change files: their paths are snapshotted for review. */
export const fileChangingKinds: ReadonlySet<string> = new Set<ToolKindView>(['edit', 'delete', 'move']);

export function isToolKind(kind: unknown): kind is ToolKindView {
  return typeof kind === 'string' && (toolKinds as readonly string[]).includes(kind);
}
