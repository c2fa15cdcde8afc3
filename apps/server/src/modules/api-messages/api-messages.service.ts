import { createHash, timingSafeEqual } from 'node:crypto';
import {
  API_IDEMPOTENCY_TTL_HOURS,
  type ApiMessageSendReply,
  type ApiMessageStatusReply,
  apiMessageState,
  formatDueDate,
  mediaTypeOf,
  ninthDigitVariants,
} from '@balcao/shared';
import { and, eq, gt, inArray, lt, ne, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Channel } from '../../channels/channel.js';
import type { ChannelManager } from '../../channels/manager.js';
import type { Db } from '../../db/client.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { Jobs } from '../../platform/jobs/jobs.js';
import type { Realtime } from '../../platform/realtime/realtime.js';
import type { Storage } from '../../platform/storage/storage.js';
import { isOverdue } from '../../platform/tenancy/company-access.js';
import { companies } from '../companies/companies.schema.js';
import { contacts } from '../contacts/contacts.schema.js';
import { announceNewContacts } from '../contacts/contacts.service.js';
import { wake } from '../messages/messages.outbox.js';
import { messages } from '../messages/messages.schema.js';
import type { UploadedFile } from '../messages/messages.service.js';
import { emitMessage, viewMessages } from '../messages/messages.view.js';
import { plans } from '../plans/plans.schema.js';
import { tickets } from '../tickets/tickets.schema.js';
import { markLeads, openCycle } from '../tickets/tickets.tracking.js';
import { emitTicket, selectTicket } from '../tickets/tickets.view.js';
import { whatsapps } from '../whatsapp/whatsapp.schema.js';
import { apiTokenHash } from '../whatsapp/whatsapp.service.js';
import { apiIdempotencyKeys } from './api-messages.schema.js';

/** The `source` of the messages this API stores (in `messages.data`), which `GET /api/messages/{id}` reads. */
export const API_SOURCE = 'api';
const SENT_REPLY = 'Mensagem enviada com sucesso';

/** Who calls the API: the connection its token names, with that connection's company. */
export interface ApiCaller {
  companyId: number;
  whatsappId: number;
  /** The connection's status when the call came in. */
  status: string;
}

export interface ApiMessagesDeps {
  db: Db;
  /** Where a failure after the reply (an event, the wake-up) is told. */
  log: Pick<FastifyBaseLogger, 'warn'>;
  realtime: Realtime;
  jobs: Jobs;
  channels: ChannelManager;
  storage: Storage;
}

function bearerOf(authorization: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  return match?.[1];
}

const sameHash = (a: string, b: string) => {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * The caller of a request by its `Authorization: Bearer <connection token>` (DOMAIN §10): the token is
 * looked up by its SHA-256 and the hashes compared in constant time; unknown or absent → 401, a plan
 * without `useExternalApi` → 403, an inactive company → 403, one past its due date → 401 (as its login).
 */
export async function apiCallerOf(db: Db, authorization: string | undefined): Promise<ApiCaller> {
  const token = bearerOf(authorization);
  if (!token)
    throw new AppError('ERR_INVALID_CREDENTIALS', {}, 'Missing API token: send Authorization: Bearer <token>');
  const hash = apiTokenHash(token);
  const [row] = await db
    .select({
      whatsappId: whatsapps.id,
      companyId: whatsapps.companyId,
      status: whatsapps.status,
      tokenHash: whatsapps.tokenHash,
      companyStatus: companies.status,
      dueDate: companies.dueDate,
      enabled: plans.useExternalApi,
    })
    .from(whatsapps)
    .innerJoin(companies, eq(companies.id, whatsapps.companyId))
    .leftJoin(plans, eq(plans.id, companies.planId))
    .where(eq(whatsapps.tokenHash, hash))
    .limit(1);
  if (!row?.tokenHash || !sameHash(row.tokenHash, hash))
    throw new AppError('ERR_INVALID_CREDENTIALS', {}, 'Invalid API token');
  if (row.enabled === false) throw new AppError('ERR_PLAN_FEATURE_DISABLED', { flag: 'useExternalApi' });
  if (!row.companyStatus) throw new AppError('ERR_NO_PERMISSION', {}, 'Company is inactive');
  if (isOverdue(row.dueDate))
    throw new AppError(
      'ERR_SUBSCRIPTION_EXPIRED',
      { dueDate: row.dueDate },
      `Opss! Sua assinatura venceu ${formatDueDate(row.dueDate as string)}. Entre em contato com o Suporte para mais informações!`,
    );
  return { companyId: row.companyId, whatsappId: row.whatsappId, status: row.status };
}

export interface ApiSendInput {
  /** Normalised digits (apiNumberField). */
  number: string;
  body: string;
  files: UploadedFile[];
  idempotencyKey?: string;
}

export interface ApiSendResult {
  reply: ApiMessageSendReply;
  /** An earlier call with the same `Idempotency-Key` made it. */
  replayed: boolean;
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/** What a call asks for, so that a key reused for another message is told apart from a retry. */
const fingerprintOf = (input: ApiSendInput) =>
  sha256(JSON.stringify([input.number, input.body, input.files.map((f) => [f.fileName, f.mimetype, sha256(f.data)])]));

const keyCutoff = () => new Date(Date.now() - API_IDEMPOTENCY_TTL_HOURS * 3_600_000);

async function storedReply(db: Db, whatsappId: number, key: string) {
  const [row] = await db
    .select({ reply: apiIdempotencyKeys.reply, fingerprint: apiIdempotencyKeys.fingerprint })
    .from(apiIdempotencyKeys)
    .where(
      and(
        eq(apiIdempotencyKeys.whatsappId, whatsappId),
        eq(apiIdempotencyKeys.key, key),
        gt(apiIdempotencyKeys.createdAt, keyCutoff()),
      ),
    )
    .limit(1);
  return row?.reply ? { reply: row.reply as ApiMessageSendReply, fingerprint: row.fingerprint } : undefined;
}

function replayOf(prior: { reply: ApiMessageSendReply; fingerprint: string }, fingerprint: string): ApiSendResult {
  if (prior.fingerprint !== fingerprint)
    throw new AppError('ERR_VALIDATION', {}, 'This Idempotency-Key was already used for another message');
  return { reply: prior.reply, replayed: true };
}

/**
 * The number as WhatsApp knows it: the first of its forms (with or without a Brazilian mobile's
 * ninth digit) the connection confirms, else ERR_WAPP_INVALID_CONTACT. A connection that cannot
 * tell now (its socket on another server instance, a failed check) lets the number through as
 * given: the send then fails on its own, which `GET /api/messages/{id}` shows.
 */
async function numberOnWhatsapp(channels: ChannelManager, whatsappId: number, number: string): Promise<string> {
  let channel: Channel;
  try {
    channel = channels.get(whatsappId);
  } catch {
    return number;
  }
  for (const variant of ninthDigitVariants(number)) {
    let found: { exists: boolean; jid?: string };
    try {
      found = await channel.checkNumber(variant);
    } catch {
      return number;
    }
    if (found.exists) return (found.jid ?? variant).split('@')[0].replace(/\D/g, '') || variant;
  }
  throw new AppError('ERR_WAPP_INVALID_CONTACT');
}

type Recipient = {
  contact: { id: number; number: string; name: string; created: boolean };
  ticket: { id: number; queueId: number | null; userId: number | null; created: boolean };
};

/**
 * The company's contact with the number (or another of its forms) and its open or pending ticket on
 * the connection, in one read; what is missing is created: the contact named by its number, the
 * ticket pending with its service cycle (DOMAIN §4, §9). A writer that created one of them first
 * wins (the unique indexes), and the read is made again.
 */
async function recipientFor(tx: Db, caller: ApiCaller, number: string): Promise<Recipient> {
  const forms = [...new Set([number, ...ninthDigitVariants(number)])];
  const find = async () => {
    const rows = await tx
      .select({
        id: contacts.id,
        number: contacts.number,
        name: contacts.name,
        ticketId: tickets.id,
        queueId: tickets.queueId,
        userId: tickets.userId,
      })
      .from(contacts)
      .leftJoin(
        tickets,
        and(
          eq(tickets.companyId, caller.companyId),
          eq(tickets.contactId, contacts.id),
          eq(tickets.whatsappId, caller.whatsappId),
          ne(tickets.status, 'closed'),
        ),
      )
      .where(and(eq(contacts.companyId, caller.companyId), inArray(contacts.number, forms)));
    return rows.find((c) => c.number === number) ?? rows[0];
  };
  let found = await find();
  let contactCreated = false;
  if (!found) {
    const [row] = await tx
      .insert(contacts)
      .values({ companyId: caller.companyId, number, name: number })
      .onConflictDoNothing()
      .returning({ id: contacts.id });
    contactCreated = Boolean(row);
    found = row ? { id: row.id, number, name: number, ticketId: null, queueId: null, userId: null } : await find();
    if (!found) throw new AppError('ERR_CREATING_MESSAGE');
  }
  const contact = { id: found.id, number: found.number, name: found.name, created: contactCreated };
  if (found.ticketId !== null)
    return { contact, ticket: { id: found.ticketId, queueId: found.queueId, userId: found.userId, created: false } };
  const [row] = await tx
    .insert(tickets)
    .values({ companyId: caller.companyId, contactId: contact.id, whatsappId: caller.whatsappId, status: 'pending' })
    .onConflictDoNothing()
    .returning({ id: tickets.id });
  if (row) {
    await openCycle(tx, { companyId: caller.companyId, ticketId: row.id, whatsappId: caller.whatsappId });
    await markLeads(tx, [row.id]);
    return { contact, ticket: { id: row.id, queueId: null, userId: null, created: true } };
  }
  const theirs = await find();
  if (theirs?.ticketId == null) throw new AppError('ERR_CREATING_TICKET');
  return { contact, ticket: { id: theirs.ticketId, queueId: theirs.queueId, userId: theirs.userId, created: false } };
}

/**
 * Takes the key for this call; undefined when another call of the last day holds it (committed: the
 * insert waits for a concurrent one). An expired holder is deleted and the key taken over.
 */
async function claimKey(tx: Db, caller: ApiCaller, key: string, fingerprint: string): Promise<number | undefined> {
  const insert = async () => {
    const [row] = await tx
      .insert(apiIdempotencyKeys)
      .values({ companyId: caller.companyId, whatsappId: caller.whatsappId, key, fingerprint })
      .onConflictDoNothing()
      .returning({ id: apiIdempotencyKeys.id });
    return row?.id;
  };
  const claim = await insert();
  if (claim !== undefined) return claim;
  const expired = await tx
    .delete(apiIdempotencyKeys)
    .where(
      and(
        eq(apiIdempotencyKeys.whatsappId, caller.whatsappId),
        eq(apiIdempotencyKeys.key, key),
        lt(apiIdempotencyKeys.createdAt, keyCutoff()),
      ),
    )
    .returning({ id: apiIdempotencyKeys.id });
  return expired.length ? insert() : undefined;
}

/** Every `SWEEP_EVERY`th call with a key (per server instance) deletes up to a thousand expired keys. */
const SWEEP_EVERY = 256;
let keyedCalls = 0;
async function sweepExpiredKeys(db: Db) {
  if (++keyedCalls % SWEEP_EVERY !== 0) return;
  const expired = db
    .select({ id: apiIdempotencyKeys.id })
    .from(apiIdempotencyKeys)
    .where(lt(apiIdempotencyKeys.createdAt, keyCutoff()))
    .limit(1000);
  await db.delete(apiIdempotencyKeys).where(inArray(apiIdempotencyKeys.id, expired));
}

async function storeFiles(storage: Storage, companyId: number, files: UploadedFile[]) {
  const keys: string[] = [];
  try {
    for (const file of files) keys.push((await storage.put(companyId, file.data, file.fileName)).key);
  } catch (err) {
    await removeFiles(storage, keys);
    throw err;
  }
  return keys;
}

async function removeFiles(storage: Storage, keys: string[]) {
  await Promise.all(keys.map((key) => storage.remove(key).catch(() => undefined)));
}

/** As after an agent's message: the lists and the open chats hear of it, and a sender is woken. */
async function announce(
  deps: ApiMessagesDeps,
  caller: ApiCaller,
  outcome: { recipient: Recipient; rows: (typeof messages.$inferSelect)[] },
  keyed: boolean,
) {
  const { contact, ticket } = outcome.recipient;
  const [view] = await Promise.all([
    selectTicket(deps.db, caller.companyId, ticket.id),
    wake(deps.jobs, ticket.id),
    contact.created ? announceNewContacts(deps.db, deps.realtime, caller.companyId, [contact.id]) : undefined,
    keyed ? sweepExpiredKeys(deps.db) : undefined,
  ]);
  if (view && ticket.created) emitTicket(deps.realtime, caller.companyId, view);
  const shown = await viewMessages(deps.db, outcome.rows, [contact]);
  for (const message of shown)
    emitMessage(deps.realtime, caller.companyId, view ?? ticket, 'create', message, view ? { ticket: view } : {});
}

/**
 * `POST /api/messages/send` (DOMAIN §10): finds or creates the contact and its ticket on the token's
 * connection and stores the message(s) in the outbox as an agent's are (pending rows that the
 * outbox sends in order, the ticket's last message, the same events), marked `source: api`.
 * Everything is one transaction, the `Idempotency-Key` row included: a failure leaves nothing
 * behind (the files stored for it are removed), and of concurrent calls with one key only the first
 * stores anything; the others wait for it on the key's unique index and answer with its reply.
 * Events and the send job's wake-up follow the commit, without holding the reply back.
 */
export async function sendApiMessage(
  deps: ApiMessagesDeps,
  caller: ApiCaller,
  input: ApiSendInput,
): Promise<ApiSendResult> {
  const key = input.idempotencyKey;
  const fingerprint = fingerprintOf(input);
  if (key) {
    const prior = await storedReply(deps.db, caller.whatsappId, key);
    if (prior) return replayOf(prior, fingerprint);
  }
  if (!input.body.trim() && input.files.length === 0)
    throw new AppError('ERR_VALIDATION', {}, 'Empty message: send a body or medias');
  if (caller.status !== 'CONNECTED') throw new AppError('ERR_WAPP_NOT_INITIALIZED');
  const number = await numberOnWhatsapp(deps.channels, caller.whatsappId, input.number);
  const keys = await storeFiles(deps.storage, caller.companyId, input.files);
  let outcome: { reply: ApiMessageSendReply; recipient: Recipient; rows: (typeof messages.$inferSelect)[] } | null;
  try {
    outcome = await deps.db.transaction(async (transaction) => {
      const tx = transaction as unknown as Db;
      const claim = key ? await claimKey(tx, caller, key, fingerprint) : undefined;
      // Another call with this key committed first: its reply is the answer.
      if (key && claim === undefined) return null;
      const recipient = await recipientFor(tx, caller, number);
      const { contact, ticket } = recipient;
      const base = {
        companyId: caller.companyId,
        ticketId: ticket.id,
        whatsappId: caller.whatsappId,
        contactId: contact.id,
        fromMe: true,
        read: true,
        sendStatus: 'pending' as const,
        data: { source: API_SOURCE },
      };
      const values = input.files.length
        ? input.files.map((file, i) => ({
            ...base,
            body: i === 0 ? input.body : '',
            mediaType: mediaTypeOf(file.mimetype),
            mediaKey: keys[i],
            mediaName: file.fileName,
            mediaMime: file.mimetype,
          }))
        : [{ ...base, body: input.body, mediaType: 'chat' as const }];
      const rows = await tx.insert(messages).values(values).returning();
      await tx
        .update(tickets)
        .set({
          lastMessage: input.body || input.files.at(-1)?.fileName || '',
          lastMessageAt: new Date(),
          lastFromMe: true,
        })
        .where(eq(tickets.id, ticket.id));
      const ids = rows.map((m) => m.id);
      const reply: ApiMessageSendReply = {
        message: SENT_REPLY,
        id: ids[0],
        ids,
        ticketId: ticket.id,
        contactId: contact.id,
        number: contact.number,
        status: 'pending',
      };
      if (claim !== undefined)
        await tx.update(apiIdempotencyKeys).set({ reply }).where(eq(apiIdempotencyKeys.id, claim));
      return { reply, recipient, rows };
    });
  } catch (err) {
    await removeFiles(deps.storage, keys);
    throw err;
  }
  if (!outcome) {
    await removeFiles(deps.storage, keys);
    const prior = key ? await storedReply(deps.db, caller.whatsappId, key) : undefined;
    if (!prior) throw new AppError('ERR_CREATING_MESSAGE');
    return replayOf(prior, fingerprint);
  }
  // The rows are the durable work (the outbox's sweeper finds a message no wake-up announced), so the
  // reply does not wait for the events and the wake-up that follow the commit.
  void announce(deps, caller, outcome, key !== undefined).catch((err) =>
    deps.log.warn({ err, ticketId: outcome.recipient.ticket.id }, 'api message: announcing failed'),
  );
  return { reply: outcome.reply, replayed: false };
}

/** `GET /api/messages/{id}`: the state of a message this API stored for the token's connection; any other is not found. */
export async function apiMessageStatus(db: Db, caller: ApiCaller, id: number): Promise<ApiMessageStatusReply> {
  const [m] = await db
    .select({
      id: messages.id,
      ticketId: messages.ticketId,
      sendStatus: messages.sendStatus,
      ack: messages.ack,
      sendError: messages.sendError,
      createdAt: messages.createdAt,
      updatedAt: messages.updatedAt,
    })
    .from(messages)
    .where(
      and(
        eq(messages.id, id),
        eq(messages.companyId, caller.companyId),
        eq(messages.whatsappId, caller.whatsappId),
        eq(messages.fromMe, true),
        sql`${messages.data}->>'source' = ${API_SOURCE}`,
      ),
    )
    .limit(1);
  if (!m) throw new AppError('ERR_NO_MESSAGE_FOUND');
  return {
    id: m.id,
    ticketId: m.ticketId,
    status: apiMessageState(m),
    ack: m.ack,
    error: m.sendStatus === 'failed' ? m.sendError : null,
    createdAt: m.createdAt.toISOString(),
    updatedAt: m.updatedAt.toISOString(),
  };
}
