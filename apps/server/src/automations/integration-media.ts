import path from 'node:path';
import type { BotOutput } from '../modules/integrations/bots/bot.js';
import { selectTicket } from '../modules/tickets/tickets.view.js';
import { guardedFetch, OutboundError } from '../platform/http/outbound.js';
import type { BotTicket } from './bot-ticket.js';
import type { IntegrationDeps } from './integration.js';
import { sendAutomatic } from './send-automatic.js';

/** WhatsApp's own ceiling for media; a bot's file above it could never be sent. */
const MAX_MEDIA_BYTES = 16 * 1024 * 1024;
const MEDIA_TIMEOUT_MS = 15_000;

const fallbackMime = {
  image: 'image/jpeg',
  video: 'video/mp4',
  audio: 'audio/ogg',
  document: 'application/octet-stream',
};

function fileNameOf(url: string, mediaType: string): string {
  const base = path.posix
    .basename(new URL(url).pathname)
    .replace(/[^\w.-]/g, '_')
    .slice(-100);
  return base && base !== '_' ? base : mediaType;
}

/**
 * A bot's image, video, audio or file (Typebot bubbles, webhook replies): fetched through the private-address
 * guard, stored under the company's keys and sent like any automatic message. A file that cannot be fetched
 * is sent as its link, so the contact still gets it.
 */
export async function sendBotMedia(
  deps: IntegrationDeps,
  ticket: BotTicket,
  out: Extract<BotOutput, { kind: 'media' }>,
): Promise<void> {
  const view = await selectTicket(deps.db, ticket.companyId, ticket.id);
  if (!view) return;
  const target = { ...view, companyId: ticket.companyId };
  try {
    const res = await guardedFetch(
      out.url,
      { method: 'GET' },
      { timeoutMs: MEDIA_TIMEOUT_MS, allowPrivate: deps.bots.allowPrivate, maxBytes: MAX_MEDIA_BYTES },
    );
    if (!res.ok) throw new OutboundError(`media answered ${res.status}`, 'network');
    const fileName = fileNameOf(out.url, out.mediaType);
    const mimetype =
      String(res.headers['content-type'] ?? '')
        .split(';')[0]
        .trim() || fallbackMime[out.mediaType];
    const { key } = await deps.storage.put(ticket.companyId, res.body(), fileName);
    await sendAutomatic(deps, target, out.caption ?? '', { key, fileName, mimetype });
  } catch (err) {
    if (!(err instanceof OutboundError)) throw err;
    deps.log.warn({ ticketId: ticket.id, err: err.message }, 'bot media not fetched: sent as a link');
    await sendAutomatic(deps, target, [out.caption, out.url].filter(Boolean).join('\n'));
  }
}
