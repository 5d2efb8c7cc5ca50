import { z } from 'zod';
import { mentionKinds, promptImageTypes } from './conversationView';

/** What a prompt may carry beside its text: `@` mentions and pasted images (validated: the webview is untrusted). */
export const mentionSchema = z.object({
  kind: z.enum(mentionKinds),
  label: z.string().max(1000),
  path: z.string().min(1).max(4096),
  detail: z.string().max(4096),
  startLine: z.number().int().positive().nullable(),
  endLine: z.number().int().positive().nullable(),
  open: z.boolean(),
});

export const promptImageSchema = z.object({
  mimeType: z.enum(promptImageTypes),
  // About 15 MB of image per attachment.
  data: z.string().min(1).max(20_000_000).regex(/^[A-Za-z0-9+/=]+$/),
});

export const promptContextFields = {
  mentions: z.array(mentionSchema).max(50).optional(),
  images: z.array(promptImageSchema).max(10).optional(),
};

/** Webview -> host messages of the conversation controls, spread into the panel's union. */
export const conversationMessageSchemas = [
  z.object({ type: z.literal('setSessionOption'), optionId: z.string().min(1).max(200), value: z.union([z.string().min(1).max(500), z.boolean()]) }),
  z.object({ type: z.literal('setFollowAgent'), enabled: z.boolean() }),
  z.object({ type: z.literal('requestMentions'), requestId: z.number().int().nonnegative(), query: z.string().max(500) }),
  z.object({ type: z.literal('revokeGrant'), grantId: z.string().min(1).max(200) }),
  z.object({ type: z.literal('copyText'), text: z.string().max(5_000_000) }),
] as const;
