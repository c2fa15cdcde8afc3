import { AppError } from '../../platform/errors/app-error.js';
import { type Channel, failsAs, type OutboundFile, type SendOptions, type SentRef } from '../channel.js';
import type { ChannelContext } from '../manager.js';
import { type CloudConfig, openCloudConfig } from './cloud.crypto.js';

/** Every call to the Graph API gives up after this long. */
export const GRAPH_TIMEOUT_MS = 10_000;

export interface CloudOptions {
  /** Base URL of the Graph API, e.g. https://graph.facebook.com/v21.0 (no trailing slash needed). */
  graphUrl: string;
  key: Buffer;
}

/** A Graph API client for one Cloud API number: JSON calls and media download, Bearer token, timeouts. */
export function graphClient(graphUrl: string, config: Pick<CloudConfig, 'accessToken'>) {
  const base = graphUrl.replace(/\/+$/, '');
  const auth = { authorization: `Bearer ${config.accessToken}` };
  const call = async <T>(method: 'GET' | 'POST', path: string, body?: object | FormData): Promise<T> => {
    const res = await fetch(`${base}/${path}`, {
      method,
      headers: body && !(body instanceof FormData) ? { ...auth, 'content-type': 'application/json' } : auth,
      body: body instanceof FormData ? body : body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(GRAPH_TIMEOUT_MS),
    });
    const text = await res.text();
    if (!res.ok) throw new GraphError(res.status, text.slice(0, 500));
    return (text ? JSON.parse(text) : {}) as T;
  };
  return {
    get: <T>(path: string) => call<T>('GET', path),
    post: <T>(path: string, body: object | FormData) => call<T>('POST', path, body),
    /** The bytes of a received media: its metadata, then its (short-lived) URL, both with the token. */
    async download(mediaId: string): Promise<{ data: Buffer; mimetype: string }> {
      const meta = await call<{ url?: string; mime_type?: string }>('GET', encodeURIComponent(mediaId));
      if (!meta.url) throw new AppError('ERR_WAPP_DOWNLOAD_MEDIA');
      const res = await fetch(meta.url, { headers: auth, signal: AbortSignal.timeout(GRAPH_TIMEOUT_MS) });
      if (!res.ok) throw new AppError('ERR_WAPP_DOWNLOAD_MEDIA');
      return {
        data: Buffer.from(await res.arrayBuffer()),
        mimetype: meta.mime_type ?? res.headers.get('content-type') ?? 'application/octet-stream',
      };
    },
  };
}

export class GraphError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`Graph API ${status}`);
  }
}

/**
 * Graph API error codes that mean the number cannot receive this message (not on WhatsApp, not in a
 * test number's allowed list, the sender itself): retrying never helps, so the send fails at once.
 */
const RECIPIENT_ERRORS = new Set([131026, 131030, 131021]);

function recipientRefused(err: unknown): boolean {
  if (!(err instanceof GraphError) || err.status !== 400) return false;
  try {
    return RECIPIENT_ERRORS.has(Number((JSON.parse(err.body) as { error?: { code?: unknown } }).error?.code));
  } catch {
    return false;
  }
}

const mediaKind = (mimetype: string) =>
  mimetype.startsWith('image/')
    ? 'image'
    : mimetype.startsWith('video/')
      ? 'video'
      : mimetype.startsWith('audio/')
        ? 'audio'
        : 'document';

/** A number on the WhatsApp Cloud API: sends through the Graph API, receives through the webhook (cloud.routes). */
export function createCloudChannel(
  row: { id: number; companyId: number; providerConfig: Record<string, unknown> },
  ctx: ChannelContext,
  opts: CloudOptions,
): Channel {
  const { companyId, id: whatsappId } = row;
  const config = openCloudConfig(opts.key, row.providerConfig);
  const graph = config && graphClient(opts.graphUrl, config);
  const ready = () => {
    if (!config || !graph) throw new AppError('ERR_WAPP_NOT_INITIALIZED');
    return { config, graph };
  };
  const send = async (to: string, message: Record<string, unknown>, sendOpts?: SendOptions): Promise<SentRef> => {
    const { config, graph } = ready();
    const reply = await graph
      .post<{ messages?: { id: string }[] }>(`${encodeURIComponent(config.phoneNumberId)}/messages`, {
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to,
        ...(sendOpts?.quotedProviderId ? { context: { message_id: sendOpts.quotedProviderId } } : {}),
        ...message,
      })
      .catch((err: unknown) => {
        if (recipientRefused(err)) throw new AppError('ERR_WAPP_INVALID_CONTACT');
        return failsAs('ERR_SENDING_WAPP_MSG')(err);
      });
    const providerId = reply.messages?.[0]?.id;
    if (!providerId) throw new AppError('ERR_SENDING_WAPP_MSG', {}, 'Graph API reply without a message id');
    return { providerId };
  };

  return {
    async start() {
      if (!config || !graph) {
        await ctx.events.connection({ companyId, whatsappId, status: 'DISCONNECTED', qrcode: '' });
        return;
      }
      try {
        const phone = await graph.get<{ display_phone_number?: string }>(
          `${encodeURIComponent(config.phoneNumberId)}?fields=display_phone_number`,
        );
        const number = phone.display_phone_number?.replace(/\D/g, '') || undefined;
        await ctx.events.connection({ companyId, whatsappId, status: 'CONNECTED', qrcode: '', number });
      } catch (err) {
        ctx.log.warn({ err, whatsappId }, 'cloud api number not reachable');
        await ctx.events.connection({ companyId, whatsappId, status: 'DISCONNECTED', qrcode: '' });
      }
    },
    async stop() {},
    async logout() {
      await ctx.events.connection({ companyId, whatsappId, status: 'DISCONNECTED', qrcode: '' });
    },
    sendText: (to, body, sendOpts) => send(to, { type: 'text', text: { body, preview_url: false } }, sendOpts),
    sendTemplate: (to, template, sendOpts) =>
      send(
        to,
        {
          type: 'template',
          template: {
            name: template.name,
            language: { code: template.language },
            components: template.variables.length
              ? [{ type: 'body', parameters: template.variables.map((text) => ({ type: 'text', text })) }]
              : [],
          },
        },
        sendOpts,
      ),
    async sendMedia(to, file: OutboundFile, caption, sendOpts) {
      const { config, graph } = ready();
      const form = new FormData();
      form.set('messaging_product', 'whatsapp');
      form.set('type', file.mimetype);
      form.set('file', new Blob([new Uint8Array(file.data)], { type: file.mimetype }), file.fileName);
      const uploaded = await graph
        .post<{ id?: string }>(`${encodeURIComponent(config.phoneNumberId)}/media`, form)
        .catch(failsAs('ERR_SENDING_WAPP_MSG'));
      if (!uploaded.id) throw new AppError('ERR_SENDING_WAPP_MSG', {}, 'Graph API media upload without an id');
      const kind = mediaKind(file.mimetype);
      const media: Record<string, string> = { id: uploaded.id };
      if (kind !== 'audio' && caption) media.caption = caption;
      if (kind === 'document') media.filename = file.fileName;
      return send(to, { type: kind, [kind]: media }, sendOpts);
    },
    async deleteMessage() {
      throw new AppError('ERR_DELETE_WAPP_MSG', {}, 'The Cloud API cannot delete sent messages');
    },
    async markRead(_to, refs) {
      const newest = refs.at(-1);
      if (!newest) return;
      const { config, graph } = ready();
      // The Graph API marks the earlier messages of the conversation read with it: one request.
      await graph.post(`${encodeURIComponent(config.phoneNumberId)}/messages`, {
        messaging_product: 'whatsapp',
        status: 'read',
        message_id: newest.providerId,
      });
    },
    async checkNumber(number) {
      const digits = number.replace(/\D/g, '');
      const exists = /^\d{8,15}$/.test(digits);
      return exists ? { exists, jid: digits } : { exists };
    },
  };
}
