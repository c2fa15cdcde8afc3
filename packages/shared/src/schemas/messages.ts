import { z } from 'zod';
import { intId, pageQuery } from './common.js';

export const MEDIA_TYPES = [
  'chat',
  'image',
  'audio',
  'video',
  'application',
  'locationMessage',
  'vcard',
  'call_log',
  /** Not a WhatsApp message: the event line of a transfer, its body naming where the ticket went. */
  'transfer',
] as const;
export type MessageMediaType = (typeof MEDIA_TYPES)[number];

export const quotedMessageSchema = z.object({
  id: z.number(),
  body: z.string(),
  fromMe: z.boolean(),
  mediaType: z.enum(MEDIA_TYPES),
  mediaUrl: z.string().nullable(),
  isDeleted: z.boolean(),
  contact: z.object({ id: z.number(), name: z.string() }).nullable(),
});

export const messageSchema = z.object({
  id: z.number(),
  ticketId: z.number(),
  body: z.string(),
  fromMe: z.boolean(),
  mediaType: z.enum(MEDIA_TYPES),
  /** Authenticated API path of the file, or null. */
  mediaUrl: z.string().nullable(),
  mediaName: z.string().nullable(),
  isDeleted: z.boolean(),
  isEdited: z.boolean(),
  ack: z.number(),
  read: z.boolean(),
  participant: z.string().nullable(),
  sendStatus: z.enum(['pending', 'sending', 'sent', 'failed', 'received']),
  /** Why a failed message could not be sent (an ERR_* code). */
  sendError: z.string().nullable(),
  quotedMsg: quotedMessageSchema.nullable(),
  contact: z.object({ id: z.number(), name: z.string() }).nullable(),
  /** What a received voice note says, once the AI assistant transcribed it (DOMAIN §16). */
  transcript: z.string().nullable().optional(),
  createdAt: z.string(),
});
export type Message = z.infer<typeof messageSchema>;

export const messagesListQuery = z.object({
  pageNumber: pageQuery.shape.pageNumber,
});
export const messagesListReply = z.object({
  messages: z.array(messageSchema),
  ticket: z.unknown().optional(),
  count: z.number(),
  hasMore: z.boolean(),
});

export const messageSendBody = z.object({
  body: z.string().max(65_536).default(''),
  read: z.union([z.boolean(), z.literal(1), z.literal(0)]).optional(),
  fromMe: z.union([z.boolean(), z.literal(1), z.literal(0)]).optional(),
  mediaUrl: z.string().max(2000).optional(),
  quotedMsg: z.object({ id: intId() }).passthrough().nullable().optional(),
  /** The quick reply the body came from: its file is sent along. */
  quickMessageId: intId().optional(),
});

/**
 * `POST /messages/{ticketId}/file-list/{fileListId}` (beyond the spec, DOMAIN §15): the list's message
 * and files sent into the ticket as the agent's messages.
 */
export const messageFileListParams = z.object({ ticketId: intId(), fileListId: intId() });

export interface AppMessageEvent {
  action: 'create' | 'update';
  message: Message;
  ticket?: unknown;
  contact?: unknown;
}
