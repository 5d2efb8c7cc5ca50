import { z } from 'zod';

/** Webview -> host intents about tabs and history, validated like every other message. */
export const sessionMessageSchemas = [
  z.object({ type: z.literal('selectTab'), tabId: z.string().min(1).max(200) }),
  z.object({ type: z.literal('closeTab'), tabId: z.string().min(1).max(200) }),
  z.object({ type: z.literal('renameTab'), tabId: z.string().min(1).max(200), title: z.string().min(1).max(200) }),
  z.object({ type: z.literal('requestHistory') }),
  z.object({ type: z.literal('openHistory'), key: z.string().min(1).max(500) }),
  z.object({ type: z.literal('deleteHistory'), key: z.string().min(1).max(500) }),
] as const;
