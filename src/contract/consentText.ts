/** Agent text as consent surfaces show it (src/util/visibleText.ts) and the command a tool's raw input names, published to the webview. */
export { visibleText, visibleLines } from '../util/visibleText';
export { commandOfRawInput } from '../acp/toolCommand';
