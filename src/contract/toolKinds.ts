/** ACP's tool kinds (src/acp/toolKinds.ts), published to the webview. */
export { toolKinds, fileChangingKinds, isToolKind, type ToolKindView } from '../acp/toolKinds';
