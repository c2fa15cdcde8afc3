import { randomBytes, randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Channel, InboundMessage, OutboundFile, SendOptions, SentRef } from '../channel.js';
import type { ChannelContext } from '../manager.js';
import { sandboxOutbox } from './sandbox.schema.js';

const PAIRED = 'sandbox:paired';

export interface SandboxChannel extends Channel {
  readonly provider: 'sandbox';
  readonly companyId: number;
  readonly whatsappId: number;
  /** The simulated phone scanned the QR code. */
  scan(): Promise<void>;
  /** A message from a simulated contact, through the real inbound pipeline. */
  receive(message: Omit<InboundMessage, 'companyId' | 'whatsappId'>): Promise<void>;
  /** The contact's phone acknowledged one of our messages (2 received, 3 read). */
  ack(providerId: string, ack: 2 | 3): Promise<boolean>;
  /** A simulated contact calls this connection: the channel's call event. */
  call(from: string, callId: string): Promise<void>;
  rejectCall(callId: string, from: string): Promise<void>;
}

/** What the contact's phone shows when we reject its call: an outbox row with this body. */
export const SANDBOX_CALL_REJECTED = '[call rejected]';

/**
 * An in-process provider: connecting shows a QR code that `scan()` accepts, and what we send
 * lands in `sandbox_outbox`, where the sandbox page and the tests read the contact's phone.
 */
export function createSandboxChannel(
  row: { id: number; companyId: number; session: string },
  ctx: ChannelContext,
): SandboxChannel {
  const { companyId, id: whatsappId } = row;
  const update = (status: 'OPENING' | 'qrcode' | 'CONNECTED' | 'DISCONNECTED', qrcode = '') =>
    ctx.events.connection({
      companyId,
      whatsappId,
      status,
      qrcode,
      number: status === 'CONNECTED' ? `55000${String(whatsappId).padStart(8, '0')}` : undefined,
    });
  const setSession = (session: string) => ctx.store.setSession(companyId, whatsappId, session);

  const record = async (
    to: string,
    body: string,
    opts: SendOptions | undefined,
    media: { fileName: string; mimetype: string; url: string } | null,
  ) => {
    const providerId = opts?.messageId ?? `SBX${randomUUID().replaceAll('-', '').toUpperCase()}`;
    const values = {
      companyId,
      whatsappId,
      number: to,
      providerId,
      body,
      media,
      quotedProviderId: opts?.quotedProviderId ?? null,
    };
    // Like WhatsApp, the phone shows a message id once: a repeated send is not a second message. It is
    // still counted, so that tests can tell "sent once" from "sent again under its id".
    await ctx.db
      .insert(sandboxOutbox)
      .values(values)
      .onConflictDoUpdate({
        target: [sandboxOutbox.whatsappId, sandboxOutbox.providerId],
        set: { sends: sql`${sandboxOutbox.sends} + 1` },
      });
    return { providerId };
  };

  return {
    provider: 'sandbox',
    companyId,
    whatsappId,
    async start() {
      const current = await ctx.store.connection(companyId, whatsappId);
      if (current.session === PAIRED) return update('CONNECTED');
      await update('OPENING');
      await update('qrcode', `balcao-sandbox:${whatsappId}:${randomBytes(12).toString('base64url')}`);
    },
    async stop() {},
    async logout() {
      await setSession('');
      await update('DISCONNECTED');
    },
    async scan() {
      await setSession(PAIRED);
      await update('CONNECTED');
    },
    sendText: (to, body, opts): Promise<SentRef> => record(to, body, opts, null),
    async sendMedia(to, file: OutboundFile, caption, opts) {
      const stored = await ctx.storage.put(companyId, file.data, file.fileName);
      return record(to, caption, opts, {
        fileName: file.fileName,
        mimetype: file.mimetype,
        url: `/media/${stored.key}`,
      });
    },
    async deleteMessage(_to, ref) {
      await ctx.db
        .update(sandboxOutbox)
        .set({ deleted: true })
        .where(and(eq(sandboxOutbox.whatsappId, whatsappId), eq(sandboxOutbox.providerId, ref.providerId)));
    },
    async markRead(_to, refs) {
      if (refs.length === 0) return;
      ctx.log.debug({ whatsappId, count: refs.length }, 'sandbox read receipts');
    },
    async checkNumber(number) {
      const exists = /^\d{8,20}$/.test(number);
      return exists ? { exists, jid: number } : { exists };
    },
    receive: (message) => ctx.events.inbound({ ...message, companyId, whatsappId }),
    call: (from, callId) => ctx.events.call({ companyId, whatsappId, callId, from }),
    async rejectCall(callId, from) {
      // One row per call, however often it is rejected: the phone sees `[call rejected]` once.
      await ctx.db
        .insert(sandboxOutbox)
        .values({
          companyId,
          whatsappId,
          number: from,
          providerId: `SBXCALL${callId}`.slice(0, 128),
          body: SANDBOX_CALL_REJECTED,
          media: null,
        })
        .onConflictDoNothing({ target: [sandboxOutbox.whatsappId, sandboxOutbox.providerId] });
    },
    async ack(providerId, ack) {
      const rows = await ctx.db
        .update(sandboxOutbox)
        .set({ ack })
        .where(and(eq(sandboxOutbox.whatsappId, whatsappId), eq(sandboxOutbox.providerId, providerId)))
        .returning({ id: sandboxOutbox.id });
      if (rows.length === 0) return false;
      await ctx.events.ack({ companyId, whatsappId, providerId, ack });
      return true;
    },
  };
}
