import { createHash, randomBytes } from 'node:crypto';
import { companyEvent, type Whatsapp, type WhatsappInput, type WhatsappUpdate } from '@balcao/shared';
import { and, asc, count, eq, ne } from 'drizzle-orm';
import type { ConnectionUpdate } from '../../channels/channel.js';
import type { Db } from '../../db/client.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { Realtime } from '../../platform/realtime/realtime.js';
import type { ServiceContext } from '../../platform/tenancy/context.js';
import { assertOwned } from '../../platform/tenancy/owned.js';
import { assertIntegrationOfCompany } from '../integrations/integrations.service.js';
import { assertBelowPlanLimit } from '../plans/plans.limits.js';
import { assertPromptOfCompany } from '../prompts/prompts.service.js';
import { assertQueuesOfCompany, type QueueLink, queueRefsOf, setQueueLinks } from '../queues/queues.service.js';
import { whatsappQueues, whatsapps } from './whatsapp.schema.js';

type Row = typeof whatsapps.$inferSelect;

/** Turns the `providerConfig` sent by an admin into what is stored (secrets encrypted, see channels/cloud). */
export type SealProviderConfig = (
  provider: string,
  input: Record<string, string>,
  current?: Record<string, unknown>,
) => Record<string, unknown>;
const storeAsIs: SealProviderConfig = (_provider, input) => input;

/** The API view of a connection: session data, token hash and provider secrets never leave. */
function toWhatsapp(r: Row, queueList: Whatsapp['queues']): Whatsapp {
  return {
    id: r.id,
    name: r.name,
    status: r.status as Whatsapp['status'],
    qrcode: r.qrcode,
    retries: r.retries,
    isDefault: r.isDefault,
    provider: r.provider as Whatsapp['provider'],
    number: r.number,
    greetingMessage: r.greetingMessage,
    complationMessage: r.complationMessage,
    outOfHoursMessage: r.outOfHoursMessage,
    ratingMessage: r.ratingMessage,
    expiresInactiveMessage: r.expiresInactiveMessage,
    expiresTicket: r.expiresTicket,
    timeSendQueue: r.timeSendQueue,
    sendIdQueue: r.sendIdQueue,
    timeUseBotQueues: r.timeUseBotQueues,
    maxUseBotQueues: r.maxUseBotQueues,
    queueHolidayMessage: r.queueHolidayMessage,
    queueHolidayDate: r.queueHolidayDate,
    queueHolidayEnd: r.queueHolidayEnd,
    promptId: r.promptId,
    integrationId: r.integrationId,
    hasToken: r.tokenHash !== null,
    queues: queueList,
    updatedAt: r.updatedAt.toISOString(),
  };
}

export const whatsappQueueLink: QueueLink = {
  table: whatsappQueues,
  owner: whatsappQueues.whatsappId,
  queue: whatsappQueues.queueId,
  row: (whatsappId, queueId) => ({ whatsappId, queueId }),
};

async function withQueues(db: Db, rows: Row[]): Promise<Whatsapp[]> {
  const byConnection = await queueRefsOf(
    db,
    whatsappQueueLink,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toWhatsapp(r, byConnection.get(r.id) ?? []));
}

export async function listWhatsapps(db: Db, companyId: number): Promise<Whatsapp[]> {
  const rows = await db.select().from(whatsapps).where(eq(whatsapps.companyId, companyId)).orderBy(asc(whatsapps.name));
  return withQueues(db, rows);
}

/** The raw row, for the channels (provider settings included). */
export async function whatsappRow(db: Db, companyId: number, id: number): Promise<Row> {
  const [row] = await db
    .select()
    .from(whatsapps)
    .where(and(eq(whatsapps.id, id), eq(whatsapps.companyId, companyId)))
    .limit(1);
  if (!row) throw new AppError('ERR_NO_WAPP_FOUND');
  return row;
}

/** A connection by id alone: the Cloud API webhook's URL names it, and the company follows from it. */
export async function connectionById(db: Db, id: number): Promise<Row | undefined> {
  const [row] = await db.select().from(whatsapps).where(eq(whatsapps.id, id)).limit(1);
  return row;
}

/** The provider's own session state, kept on the connection. */
export async function setConnectionSession(db: Db, companyId: number, id: number, session: string): Promise<void> {
  await db
    .update(whatsapps)
    .set({ session })
    .where(and(eq(whatsapps.id, id), eq(whatsapps.companyId, companyId)));
}

/** The connection an id names is the company's: another company's is simply not found. */
export const assertWhatsappOfCompany = (db: Db, companyId: number, id: number | null | undefined) =>
  assertOwned(db, whatsapps, companyId, [id], 'ERR_NO_WAPP_FOUND');

export async function findWhatsapp(db: Db, companyId: number, id: number): Promise<Whatsapp> {
  const [w] = await withQueues(db, [await whatsappRow(db, companyId, id)]);
  return w;
}

export async function defaultWhatsapp(db: Db, companyId: number): Promise<Whatsapp> {
  const [row] = await db
    .select()
    .from(whatsapps)
    .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.isDefault, true)))
    .limit(1);
  if (!row) throw new AppError('ERR_NO_DEF_WAPP_FOUND');
  const [w] = await withQueues(db, [row]);
  return w;
}

function assertGreeting(queueIds: number[], greeting: string) {
  if (new Set(queueIds).size > 1 && !greeting.trim()) throw new AppError('ERR_WAPP_GREETING_REQUIRED');
}

/**
 * What a connection links to, where it changes: its queues, the queue waiting tickets move to
 * (`sendIdQueue`) and its prompt, all of the caller's company.
 */
async function assertConnectionReferences(
  ctx: ServiceContext,
  input: Pick<WhatsappUpdate, 'queueIds' | 'sendIdQueue' | 'promptId' | 'integrationId'>,
  current?: Whatsapp,
) {
  const sendIdQueue = input.sendIdQueue !== current?.sendIdQueue ? input.sendIdQueue : undefined;
  await assertQueuesOfCompany(ctx.db, ctx.companyId, [...(input.queueIds ?? []), sendIdQueue]);
  if (input.promptId !== current?.promptId) await assertPromptOfCompany(ctx.db, ctx.companyId, input.promptId);
  if (input.integrationId !== current?.integrationId) {
    await assertIntegrationOfCompany(ctx.db, ctx.companyId, input.integrationId);
  }
}

function emitWhatsapp(realtime: Realtime, companyId: number, payload: object) {
  realtime.toCompany(companyId, companyEvent.whatsapp(companyId), payload);
}

export async function createWhatsapp(
  ctx: ServiceContext,
  input: WhatsappInput,
  sandboxEnabled: boolean,
  seal: SealProviderConfig = storeAsIs,
): Promise<Whatsapp> {
  if (input.provider === 'sandbox' && !sandboxEnabled)
    throw new AppError('ERR_NO_PERMISSION', {}, 'The sandbox provider is disabled');
  await assertConnectionReferences(ctx, input);
  assertGreeting(input.queueIds, input.greetingMessage);
  const { queueIds, providerConfig, ...fields } = input;
  const id = await ctx.db.transaction(async (tx) => {
    const total = await assertBelowPlanLimit(tx as unknown as Db, ctx.companyId, 'connections', async () => {
      const [{ n }] = await tx.select({ n: count() }).from(whatsapps).where(eq(whatsapps.companyId, ctx.companyId));
      return n;
    });
    const [{ name }] = await tx
      .select({ name: count() })
      .from(whatsapps)
      .where(and(eq(whatsapps.companyId, ctx.companyId), eq(whatsapps.name, input.name)));
    if (name > 0) throw new AppError('ERR_WAPP_NAME_ALREADY_EXISTS');
    // The first connection is the default one; a new default replaces the old.
    const isDefault = total === 0 || input.isDefault;
    if (isDefault) await tx.update(whatsapps).set({ isDefault: false }).where(eq(whatsapps.companyId, ctx.companyId));
    const [row] = await tx
      .insert(whatsapps)
      .values({
        ...fields,
        isDefault,
        providerConfig: seal(input.provider, providerConfig ?? {}),
        companyId: ctx.companyId,
      })
      .returning({ id: whatsapps.id });
    await setQueueLinks(tx as unknown as Db, whatsappQueueLink, row.id, queueIds);
    return row.id;
  });
  const whatsapp = await findWhatsapp(ctx.db, ctx.companyId, id);
  emitWhatsapp(ctx.realtime, ctx.companyId, { action: 'update', whatsapp });
  return whatsapp;
}

export async function updateWhatsapp(
  ctx: ServiceContext,
  id: number,
  input: WhatsappUpdate,
  seal: SealProviderConfig = storeAsIs,
): Promise<Whatsapp> {
  const current = await findWhatsapp(ctx.db, ctx.companyId, id);
  const queueIds = input.queueIds ?? current.queues.map((q) => q.id);
  await assertConnectionReferences(ctx, input, current);
  assertGreeting(queueIds, input.greetingMessage ?? current.greetingMessage);
  if (input.isDefault === false && current.isDefault) throw new AppError('ERR_NO_OTHER_WHATSAPP');
  if (input.name && input.name !== current.name) {
    const [{ n }] = await ctx.db
      .select({ n: count() })
      .from(whatsapps)
      .where(and(eq(whatsapps.companyId, ctx.companyId), eq(whatsapps.name, input.name)));
    if (n > 0) throw new AppError('ERR_WAPP_NAME_ALREADY_EXISTS');
  }
  const { queueIds: _q, providerConfig: sent, provider: _p, ...fields } = input;
  const providerConfig =
    sent && seal(current.provider, sent, (await whatsappRow(ctx.db, ctx.companyId, id)).providerConfig);
  await ctx.db.transaction(async (tx) => {
    if (input.isDefault) {
      await tx
        .update(whatsapps)
        .set({ isDefault: false })
        .where(and(eq(whatsapps.companyId, ctx.companyId), ne(whatsapps.id, id)));
    }
    const set = { ...fields, ...(providerConfig ? { providerConfig } : {}) };
    // A body of queues only changes no column: an UPDATE without SET would fail.
    if (Object.values(set).some((v) => v !== undefined))
      await tx
        .update(whatsapps)
        .set(set)
        .where(and(eq(whatsapps.id, id), eq(whatsapps.companyId, ctx.companyId)));
    if (input.queueIds) await setQueueLinks(tx as unknown as Db, whatsappQueueLink, id, input.queueIds);
  });
  const whatsapp = await findWhatsapp(ctx.db, ctx.companyId, id);
  emitWhatsapp(ctx.realtime, ctx.companyId, { action: 'update', whatsapp });
  return whatsapp;
}

/** A deleted prompt or integration answers on no connection any more: the connections that named it name none. */
async function detachFromWhatsapps(ctx: ServiceContext, column: 'promptId' | 'integrationId', id: number) {
  const changed = await ctx.db
    .update(whatsapps)
    .set({ [column]: null })
    .where(and(eq(whatsapps.companyId, ctx.companyId), eq(whatsapps[column], id)))
    .returning({ id: whatsapps.id });
  for (const row of changed) {
    emitWhatsapp(ctx.realtime, ctx.companyId, {
      action: 'update',
      whatsapp: await findWhatsapp(ctx.db, ctx.companyId, row.id),
    });
  }
}

export const detachPromptFromWhatsapps = (ctx: ServiceContext, promptId: number) =>
  detachFromWhatsapps(ctx, 'promptId', promptId);
export const detachIntegrationFromWhatsapps = (ctx: ServiceContext, integrationId: number) =>
  detachFromWhatsapps(ctx, 'integrationId', integrationId);

/** Deleting the default connection hands the default to the oldest remaining one. */
export async function deleteWhatsapp(ctx: ServiceContext, id: number): Promise<void> {
  const current = await findWhatsapp(ctx.db, ctx.companyId, id);
  await ctx.db.transaction(async (tx) => {
    await tx.delete(whatsapps).where(and(eq(whatsapps.id, id), eq(whatsapps.companyId, ctx.companyId)));
    if (current.isDefault) {
      const [next] = await tx
        .select({ id: whatsapps.id })
        .from(whatsapps)
        .where(eq(whatsapps.companyId, ctx.companyId))
        .orderBy(asc(whatsapps.id))
        .limit(1);
      if (next) await tx.update(whatsapps).set({ isDefault: true }).where(eq(whatsapps.id, next.id));
    }
  });
  emitWhatsapp(ctx.realtime, ctx.companyId, { action: 'delete', whatsappId: id });
}

/** What is stored of a connection's API token: its SHA-256 (hex), never the token. */
export const apiTokenHash = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

/**
 * A new external API token for the connection (DOMAIN §10): 256 random bits, returned this once and
 * stored as its hash, so the previous token stops working at once.
 */
export async function generateWhatsappToken(ctx: ServiceContext, id: number): Promise<string> {
  await whatsappRow(ctx.db, ctx.companyId, id);
  const token = randomBytes(32).toString('base64url');
  await ctx.db
    .update(whatsapps)
    .set({ tokenHash: apiTokenHash(token) })
    .where(and(eq(whatsapps.id, id), eq(whatsapps.companyId, ctx.companyId)));
  const whatsapp = await findWhatsapp(ctx.db, ctx.companyId, id);
  emitWhatsapp(ctx.realtime, ctx.companyId, { action: 'update', whatsapp });
  return token;
}

/** A provider's connection state, stored and pushed as a `whatsappSession` update. */
export async function applyConnectionUpdate(db: Db, realtime: Realtime, u: ConnectionUpdate): Promise<void> {
  const rows = await db
    .update(whatsapps)
    .set({
      status: u.status,
      qrcode: u.qrcode ?? '',
      ...(u.retries !== undefined ? { retries: u.retries } : {}),
      ...(u.number ? { number: u.number } : {}),
    })
    .where(and(eq(whatsapps.id, u.whatsappId), eq(whatsapps.companyId, u.companyId)))
    .returning();
  if (rows.length === 0) return;
  const [session] = await withQueues(db, rows);
  realtime.toCompany(u.companyId, companyEvent.whatsappSession(u.companyId), { action: 'update', session });
}

/** Connections to bring back up when the server starts: every one that was not logged out. */
export function connectionsToRestore(db: Db) {
  return db
    .select({ id: whatsapps.id, companyId: whatsapps.companyId })
    .from(whatsapps)
    .where(ne(whatsapps.status, 'DISCONNECTED'));
}
