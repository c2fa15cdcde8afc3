import { createHmac } from 'node:crypto';
import { guardedFetch, OutboundError, type OutboundResponse } from '../../../platform/http/outbound.js';
import {
  type BotAnswer,
  type BotClient,
  BotError,
  type BotOutput,
  type BotTurn,
  type ControlVerb,
  parseControlVerb,
} from './bot.js';

/**
 * n8n and plain webhooks (DOMAIN §17): one signed JSON event per contact message, the reply read
 * from the same HTTP answer. The event carries only our own fields (no provider object, no token);
 * `sessionId`/`chatInput` follow n8n's chat convention so its AI Agent memory works as is.
 * Receivers check `X-Balcao-Signature` = `sha256=` HMAC-SHA256 of `{timestamp}.{body}`.
 */

export interface WebhookOptions {
  allowPrivate: boolean;
  /** DOMAIN §17: 5 s for a webhook, 30 s for n8n. */
  timeoutMs: number;
}

interface WebhookEvent {
  event: 'message';
  deliveryId: string;
  companyId: number;
  ticketId: number;
  contact: { number: string; name: string };
  message: { id: number; type: string; text: string; mediaUrl: string | null; transcript: string | null };
  sessionId: string;
  chatInput: string;
}

const MEDIA_TYPES = new Set(['image', 'video', 'audio', 'document']);

function signatureOf(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

function eventOf(turn: BotTurn, sessionId: string): WebhookEvent {
  const { message } = turn;
  return {
    event: 'message',
    deliveryId: turn.deliveryId,
    companyId: turn.integration.companyId,
    ticketId: turn.ticketId,
    contact: { number: turn.contact.number, name: turn.contact.name },
    message: {
      id: message.id,
      type: message.type,
      text: message.text,
      mediaUrl: message.mediaUrl ?? null,
      transcript: message.transcript ?? null,
    },
    sessionId,
    chatInput: message.text || message.transcript || '',
  };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** One reply object: `output`, else `answer`, else `messages[]`; plus `action`/`actions`. */
function collect(reply: Record<string, unknown>, outputs: BotOutput[], actions: ControlVerb[]) {
  const text = (value: unknown) => {
    if (typeof value !== 'string' || !value.trim()) return;
    const verb = parseControlVerb(value);
    if (verb) actions.push(verb);
    else outputs.push({ kind: 'text', text: value });
  };

  if (typeof reply.output === 'string') text(reply.output);
  else if (typeof reply.answer === 'string') text(reply.answer);
  else if (Array.isArray(reply.messages)) {
    for (const item of reply.messages) {
      if (!isRecord(item)) text(item);
      else if (typeof item.type === 'string' && MEDIA_TYPES.has(item.type)) {
        if (typeof item.url !== 'string' || !/^https?:\/\//i.test(item.url)) continue;
        outputs.push({
          kind: 'media',
          mediaType: item.type as 'image' | 'video' | 'audio' | 'document',
          url: item.url,
          ...(typeof item.caption === 'string' && item.caption ? { caption: item.caption } : {}),
        });
      } else text(item.text);
    }
  }

  const named = [reply.action, ...(Array.isArray(reply.actions) ? reply.actions : [])];
  for (const name of named) {
    const verb = typeof name === 'string' ? parseControlVerb(name) : null;
    if (verb) actions.push(verb);
  }
}

function answerOf(res: OutboundResponse, sessionId: string): BotAnswer {
  const outputs: BotOutput[] = [];
  const actions: ControlVerb[] = [];
  const raw = res.text();
  if (raw.trim()) {
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      // A receiver that only acknowledges (`OK` as text) sends nothing; a broken JSON reply is a fault.
      if (/json/i.test(String(res.headers['content-type'] ?? ''))) throw new BotError('answer is not JSON', res.status);
      body = null;
    }
    // n8n's "Respond to Webhook" with all items answers an array of them.
    for (const reply of Array.isArray(body) ? body : [body]) if (isRecord(reply)) collect(reply, outputs, actions);
  }
  return { outputs, sessionId, actions };
}

export function createWebhookClient(opts: WebhookOptions): BotClient {
  return {
    async turn(turn) {
      const sessionId = turn.sessionId ?? `ticket-${turn.ticketId}`;
      const body = JSON.stringify(eventOf(turn, sessionId));
      const timestamp = String(Math.floor(Date.now() / 1000));
      let res: OutboundResponse;
      try {
        res = await guardedFetch(
          turn.integration.url,
          {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              'x-balcao-signature': signatureOf(turn.integration.signingSecret, timestamp, body),
              'x-balcao-timestamp': timestamp,
              'x-balcao-delivery': turn.deliveryId,
            },
            body,
          },
          opts,
        );
      } catch (err) {
        if (err instanceof OutboundError) throw new BotError(err.message);
        throw err;
      }
      // The error body is not repeated: the message of a failed call never carries what the receiver echoed.
      if (!res.ok) throw new BotError(`HTTP ${res.status}`, res.status);
      return answerOf(res, sessionId);
    },
  };
}
