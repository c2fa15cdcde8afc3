import { z } from 'zod';

export const sandboxInbound = z.object({
  number: z
    .string()
    .trim()
    .regex(/^\d{8,20}$/, 'digits only'),
  name: z.string().trim().max(100).optional(),
  body: z.string().max(65_536).optional(),
  media: z
    .object({
      fileName: z.string().trim().min(1).max(255),
      mimetype: z.string().trim().min(3).max(120),
      base64: z.string().max(90_000_000),
    })
    .optional(),
  quotedProviderId: z.string().max(128).optional(),
  providerId: z.string().max(128).optional(),
  isGroup: z.boolean().optional(),
  groupName: z.string().max(100).optional(),
  participant: z
    .string()
    .regex(/^\d{8,20}$/)
    .optional(),
  /** The contact's profile picture as WhatsApp would give it (PNG or JPEG); fetched when the contact is due. */
  profilePic: z.object({ base64: z.string().max(3_000_000) }).optional(),
});
export type SandboxInbound = z.infer<typeof sandboxInbound>;

export const sandboxOutboundQuery = z.object({
  number: z
    .string()
    .trim()
    .regex(/^\d{8,20}$/),
});
export const sandboxOutboundItem = z.object({
  id: z.number(),
  providerId: z.string(),
  body: z.string(),
  media: z.object({ fileName: z.string(), mimetype: z.string(), url: z.string() }).nullable(),
  quotedProviderId: z.string().nullable(),
  ack: z.number(),
  deleted: z.boolean(),
  /** How many times we sent this message id: the phone shows it once, a repeated send only counts here. */
  sends: z.number().int(),
  createdAt: z.string(),
});
export const sandboxAck = z.object({
  providerId: z.string().min(1).max(128),
  ack: z.union([z.literal(2), z.literal(3)]),
});
