/** The public ids (src/util/ids.ts), published to the webview. */
export {
  COMMANDS, VIEWS, FOCUS_CHAT_COMMAND, SETTINGS, CONTEXT_KEYS, STORAGE_KEYS, apiKeySecretName, FRAME_INSPECTOR_PANEL_TYPE, USAGE_STATUS_ITEM, WAITING_STATUS_ITEM,
} from '../util/ids';
