import { createHmac, timingSafeEqual } from 'node:crypto';
import { intId, locationBody, mediaTypeOf } from '@balcao/shared';
import { z } from 'zod';
import { AppError } from '../../platform/errors/app-error.js';
import type { App, ModuleRoutes } from '../../platform/http/types.js';
import { encryptionKeyOf } from '../../platform/secrets.js';
import type { InboundMessage } from '../channel.js';
import { graphClient } from './cloud.channel.js';
import { type CloudConfig, openCloudConfig } from './cloud.crypto.js';

/** `sha256=<hex>` of the raw body with the app secret, compared in constant time. */
export function validSignature(appSecret: string, raw: Buffer, header: unknown): boolean {
  if (!appSecret || typeof header !== 'string' || !header.startsWith('sha256=')) return false;
  const expected = createHmac('sha256', appSecret).update(raw).digest();
  const given = Buffer.from(header.slice('sha256='.length), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * The parts of a webhook delivery this connection reads. A list keeps its well-formed items (a
 * message with a numeric `from` is skipped, not the others); anything that is not a list where one
 * is expected makes its owner malformed. Nothing malformed is stored, and nothing answers 500.
 */
const listOf = <T extends z.ZodType>(item: T) =>
  z
    .array(z.unknown())
    .optional()
    .transform((items = []) =>
      items.flatMap((i) => {
        const parsed = item.safeParse(i);
        return parsed.success ? [parsed.data as z.output<T>] : [];
      }),
    );
const media = z.object({
  id: z.string(),
  mime_type: z.string().optional(),
  caption: z.string().optional(),
  filename: z.string().optional(),
});
type Media = z.infer<typeof media>;
const choice = z.object({ id: z.string().optional(), title: z.string().optional() }).optional();
const cloudMessage = z.object({
  id: z.string().min(1),
  from: z.string().regex(/^\d{5,20}$/),
  timestamp: z
    .string()
    .regex(/^\d{1,12}$/)
    .optional(),
  type: z.string(),
  context: z.object({ id: z.string().optional() }).optional(),
  text: z.object({ body: z.string().optional() }).optional(),
  image: media.optional(),
  audio: media.optional(),
  video: media.optional(),
  document: media.optional(),
  sticker: media.optional(),
  location: z
    .object({
      latitude: z.number(),
      longitude: z.number(),
      name: z.string().optional(),
      address: z.string().optional(),
    })
    .optional(),
  contacts: listOf(
    z.object({
      name: z.object({ formatted_name: z.string().optional() }).optional(),
      phones: listOf(z.object({ phone: z.string().optional(), wa_id: z.string().optional() })),
    }),
  ),
  button: z.object({ text: z.string().optional(), payload: z.string().optional() }).optional(),
  interactive: z.object({ button_reply: choice, list_reply: choice }).optional(),
});
type CloudMessage = z.infer<typeof cloudMessage>;
const cloudValue = z.object({
  metadata: z.object({ phone_number_id: z.string().optional() }).optional(),
  contacts: listOf(z.object({ wa_id: z.string(), profile: z.object({ name: z.string().optional() }).optional() })),
  messages: listOf(cloudMessage),
  statuses: listOf(z.object({ id: z.string(), status: z.string() })),
});
const webhookPayload = z
  .object({ entry: listOf(z.object({ changes: listOf(z.object({ value: cloudValue })) })) })
  .catch({ entry: [] });

const ACKS: Record<string, number> = { sent: 1, delivered: 2, read: 3 };
const MEDIA_KINDS = ['image', 'audio', 'video', 'document', 'sticker'] as const;
const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'audio/ogg': 'ogg',
  'audio/mpeg': 'mp3',
  'video/mp4': 'mp4',
  'application/pdf': 'pdf',
};

function vcardOf(contacts: CloudMessage['contacts']): string {
  return contacts
    .map((c) => {
      const name = c.name?.formatted_name ?? '';
      const phones = c.phones.map((p) =>
        p.wa_id ? `TEL;type=CELL;waid=${p.wa_id}:${p.phone ?? p.wa_id}` : `TEL;type=CELL:${p.phone ?? ''}`,
      );
      return ['BEGIN:VCARD', 'VERSION:3.0', `FN:${name}`, ...phones, 'END:VCARD'].join('\n');
    })
    .join('\n');
}

/** One Cloud API message in the internal shape; media downloaded from the Graph API. */
async function toInbound(
  m: CloudMessage,
  pushName: string | undefined,
  base: { companyId: number; whatsappId: number },
  download: (mediaId: string) => Promise<{ data: Buffer; mimetype: string }>,
): Promise<InboundMessage | null> {
  const common = {
    ...base,
    providerId: m.id,
    number: m.from,
    pushName,
    fromMe: false,
    quotedProviderId: m.context?.id,
    timestamp: m.timestamp ? new Date(Number(m.timestamp) * 1000) : undefined,
  };
  const kind = MEDIA_KINDS.find((k) => k === m.type);
  if (kind && m[kind]) {
    const media = m[kind] as Media;
    const file = await download(media.id);
    const mimetype = (media.mime_type ?? file.mimetype).split(';')[0].trim();
    const fileName = media.filename || `${kind}.${EXTENSIONS[mimetype] ?? 'bin'}`;
    return {
      ...common,
      body: media.caption ?? '',
      mediaType: kind === 'sticker' ? 'image' : mediaTypeOf(mimetype),
      media: { data: file.data, fileName, mimetype },
    };
  }
  switch (m.type) {
    case 'text':
      return { ...common, body: m.text?.body ?? '', mediaType: 'chat' };
    case 'location': {
      const l = m.location;
      if (!l) return null;
      return { ...common, body: locationBody(l), mediaType: 'locationMessage' };
    }
    case 'contacts':
      return { ...common, body: vcardOf(m.contacts), mediaType: 'vcard' };
    case 'button':
      return { ...common, body: m.button?.text ?? m.button?.payload ?? '', mediaType: 'chat' };
    case 'interactive': {
      const reply = m.interactive?.button_reply ?? m.interactive?.list_reply;
      return { ...common, body: reply?.title ?? reply?.id ?? '', mediaType: 'chat' };
    }
    default:
      return null;
  }
}

/**
 * The Cloud API webhook of one connection: `GET` answers Meta's verification with the verify
 * token; `POST` is public but signed (`X-Hub-Signature-256` over the raw body with the app
 * secret). The connection comes from the URL, the company from the connection.
 */
export const cloudRoutes: ModuleRoutes = (app, deps) => {
  const params = z.object({ whatsappId: intId() });
  const schema = { tags: ['webhooks'], params, hide: true };

  const connectionOf = async (whatsappId: number) => {
    const row = await deps.channels.store.connectionById(whatsappId);
    if (row?.provider !== 'cloud') return null;
    const config = openCloudConfig(encryptionKeyOf(deps.config), row.providerConfig);
    return config ? { ...row, config } : null;
  };

  app.get('/webhooks/cloud/:whatsappId', { schema }, async (request, reply) => {
    const q = request.query as Record<string, unknown>;
    const connection = await connectionOf(request.params.whatsappId);
    const token = connection?.config.verifyToken ?? '';
    const given = typeof q['hub.verify_token'] === 'string' ? q['hub.verify_token'] : '';
    const same =
      token !== '' && given.length === token.length && timingSafeEqual(Buffer.from(given), Buffer.from(token));
    if (q['hub.mode'] !== 'subscribe' || !same) throw new AppError('ERR_NO_PERMISSION', {}, 'Invalid verify token');
    return reply.type('text/plain').send(String(q['hub.challenge'] ?? ''));
  });

  // The signature covers the exact bytes Meta sent: in this scope only, JSON bodies stay raw.
  app.register(async (instance) => {
    const scope = instance as unknown as App;
    scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    scope.post('/webhooks/cloud/:whatsappId', { schema }, async (request) => {
      const connection = await connectionOf(request.params.whatsappId);
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      if (!connection || !validSignature(connection.config.appSecret, raw, request.headers['x-hub-signature-256']))
        throw new AppError('ERR_INVALID_CREDENTIALS', {}, 'Invalid signature');
      let json: unknown;
      try {
        json = JSON.parse(raw.toString('utf8'));
      } catch {
        throw new AppError('ERR_VALIDATION', {}, 'Invalid JSON');
      }
      // Meta redelivers what it gets no 200 for: a well-signed but malformed delivery is dropped, not refused.
      await handleWebhook(connection, webhookPayload.parse(json));
      return { message: 'ok' };
    });
  });

  async function handleWebhook(
    connection: { id: number; companyId: number; config: CloudConfig },
    payload: z.infer<typeof webhookPayload>,
  ) {
    const base = { companyId: connection.companyId, whatsappId: connection.id };
    const graph = graphClient(deps.config.CLOUD_GRAPH_URL, connection.config);
    const events = deps.channels.events;
    for (const entry of payload.entry) {
      for (const { value } of entry.changes) {
        // A webhook of another number of the same app is not this connection's.
        if (value.metadata?.phone_number_id && value.metadata.phone_number_id !== connection.config.phoneNumberId)
          continue;
        const names = new Map(value.contacts.map((c) => [c.wa_id, c.profile?.name]));
        for (const m of value.messages) {
          const inbound = await toInbound(m, names.get(m.from), base, graph.download);
          if (inbound) await events.inbound(inbound);
        }
        for (const s of value.statuses) {
          const ack = ACKS[s.status];
          if (ack === undefined) {
            if (s.status === 'failed')
              app.log.warn({ whatsappId: connection.id, providerId: s.id }, 'cloud api message failed');
            continue;
          }
          await events.ack({ ...base, providerId: s.id, ack });
        }
      }
    }
  }
};
