import { z } from 'zod';
import { elicitationActions } from './elicitationView';

/** Webview -> host intents about tabs and history, validated like every other message. */
export const sessionMessageSchemas = [
  z.object({ type: z.literal('selectTab'), tabId: z.string().min(1).max(200) }),
  z.object({ type: z.literal('closeTab'), tabId: z.string().min(1).max(200) }),
  z.object({ type: z.literal('forkTab'), tabId: z.string().min(1).max(200) }),
  z.object({ type: z.literal('renameTab'), tabId: z.string().min(1).max(200), title: z.string().min(1).max(200) }),
  z.object({ type: z.literal('requestHistory') }),
  z.object({ type: z.literal('openHistory'), key: z.string().min(1).max(500) }),
  z.object({ type: z.literal('deleteHistory'), key: z.string().min(1).max(500) }),
  z.object({
    type: z.literal('answerElicitation'),
    requestId: z.string().min(1).max(200),
    action: z.enum(elicitationActions),
    values: z.record(z.string().max(200), z.union([z.string().max(100_000), z.number(), z.boolean(), z.array(z.string().max(10_000)).max(1000)])),
  }),
] as const;
