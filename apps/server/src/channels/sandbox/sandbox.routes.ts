import { randomUUID } from 'node:crypto';
import {
  intId,
  mediaTypeOf,
  sandboxAck,
  sandboxInbound,
  sandboxOutboundItem,
  sandboxOutboundQuery,
} from '@balcao/shared';
import { and, asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { AppError } from '../../platform/errors/app-error.js';
import type { ModuleRoutes } from '../../platform/http/types.js';
import { callerOf } from '../../platform/tenancy/guards.js';
import { sandboxOutbox } from './sandbox.schema.js';

/**
 * The sandbox contract (issue "tickets end to end"): play a contact's phone on a sandbox
 * connection. Admin-only, company-scoped, registered only when the sandbox is enabled.
 */
export const sandboxRoutes: ModuleRoutes = (app, deps, guards) => {
  if (!deps.config.sandboxEnabled) return;
  const tags = ['sandbox'];
  const db = deps.database.db;
  const params = z.object({ whatsappId: intId() });

  // The company's sandbox live in this instance needs no read; otherwise the row says what is wrong.
  const sandboxOf = async (companyId: number, whatsappId: number) => {
    const live = deps.channels.liveSandbox(companyId, whatsappId);
    if (live) return live;
    const whatsapp = await deps.channels.store.connection(companyId, whatsappId);
    if (whatsapp.provider !== 'sandbox') throw new AppError('ERR_NO_WAPP_FOUND', {}, 'Not a sandbox connection');
    return deps.channels.sandbox(whatsappId);
  };

  app.post('/sandbox/:whatsappId/scan', { onRequest: guards.admin, schema: { tags, params } }, async (request) => {
    const { companyId } = callerOf(request);
    await (await sandboxOf(companyId, request.params.whatsappId)).scan();
    return { message: 'Connected' };
  });

  app.post(
    '/sandbox/:whatsappId/inbound',
    {
      onRequest: guards.admin,
      bodyLimit: 96 * 1024 * 1024,
      // The phone's text is a WhatsApp message: NUL is stripped by the pipeline, not refused.
      config: { whatsappBody: true },
      schema: { tags, params, body: sandboxInbound },
    },
    async (request) => {
      const { companyId } = callerOf(request);
      const channel = await sandboxOf(companyId, request.params.whatsappId);
      const b = request.body;
      const providerId = b.providerId ?? `SBXIN${randomUUID().replaceAll('-', '').toUpperCase()}`;
      const media = b.media
        ? { data: Buffer.from(b.media.base64, 'base64'), fileName: b.media.fileName, mimetype: b.media.mimetype }
        : undefined;
      const picture = b.profilePic ? Buffer.from(b.profilePic.base64, 'base64') : undefined;
      await channel.receive({
        providerId,
        number: b.number,
        pushName: b.name,
        fromMe: false,
        body: b.body ?? '',
        mediaType: media ? mediaTypeOf(media.mimetype) : 'chat',
        media,
        quotedProviderId: b.quotedProviderId,
        isGroup: b.isGroup,
        groupName: b.groupName,
        participant: b.participant,
        picture: picture && (async () => picture),
      });
      return { providerId };
    },
  );

  const callBody = z.object({
    number: sandboxInbound.shape.number,
    callId: z
      .string()
      .trim()
      .regex(/^[\w.:-]{1,100}$/)
      .optional(),
  });
  app.post(
    '/sandbox/:whatsappId/call',
    { onRequest: guards.admin, schema: { tags, params, body: callBody } },
    async (request) => {
      const channel = await sandboxOf(callerOf(request).companyId, request.params.whatsappId);
      const callId = request.body.callId ?? `SBXCALL${randomUUID().replaceAll('-', '').toUpperCase()}`;
      await channel.call(request.body.number, callId);
      return { callId };
    },
  );

  app.get(
    '/sandbox/:whatsappId/outbound',
    {
      onRequest: guards.admin,
      schema: { tags, params, querystring: sandboxOutboundQuery, response: { 200: z.array(sandboxOutboundItem) } },
    },
    async (request) => {
      const { companyId } = callerOf(request);
      await deps.channels.store.connection(companyId, request.params.whatsappId);
      const rows = await db
        .select()
        .from(sandboxOutbox)
        .where(
          and(
            eq(sandboxOutbox.companyId, companyId),
            eq(sandboxOutbox.whatsappId, request.params.whatsappId),
            eq(sandboxOutbox.number, request.query.number),
          ),
        )
        .orderBy(asc(sandboxOutbox.id))
        .limit(500);
      return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
    },
  );

  app.post(
    '/sandbox/:whatsappId/ack',
    { onRequest: guards.admin, schema: { tags, params, body: sandboxAck } },
    async (request) => {
      const channel = await sandboxOf(callerOf(request).companyId, request.params.whatsappId);
      if (!(await channel.ack(request.body.providerId, request.body.ack))) throw new AppError('ERR_NO_MESSAGE_FOUND');
      return { message: 'Ack recorded' };
    },
  );
};
