import { randomBytes } from 'node:crypto';
import {
  companyEvent,
  type IntegrationType,
  integrationIssues,
  projectNameOf,
  type QueueIntegration,
  type QueueIntegrationInput,
  type QueueIntegrationsPage,
  type QueueIntegrationUpdate,
} from '@balcao/shared';
import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { AppError } from '../../platform/errors/app-error.js';
import { likePattern, pageOf, pageWindow } from '../../platform/pagination.js';
import { decryptSecret, encryptSecret } from '../../platform/secrets.js';
import { isAdmin, type ServiceContext } from '../../platform/tenancy/context.js';
import { assertOwned } from '../../platform/tenancy/owned.js';
import { detachIntegrationFromQueues } from '../queues/queues.service.js';
import { detachIntegrationFromWhatsapps } from '../whatsapp/whatsapp.service.js';
import type { BotIntegration } from './bots/bot.js';
import { queueIntegrations } from './integrations.schema.js';

type Row = typeof queueIntegrations.$inferSelect;
export type SecretKey = Buffer;

/** A company has a handful of integrations; the plain list (connection and queue dialogs) stops here. */
const WHOLE_LIST_CAP = 500;

/** `signingSecret` only for admins: a plain member picks integrations but never signs deliveries. */
function toView(key: SecretKey, r: Row, admin: boolean): QueueIntegration {
  return {
    id: r.id,
    type: r.type,
    name: r.name,
    projectName: r.projectName,
    jsonContentClientEmail: r.jsonContentClientEmail,
    language: r.language,
    urlN8N: r.urlN8N,
    typebotDelayMessage: r.typebotDelayMessage,
    typebotExpires: r.typebotExpires,
    typebotKeywordFinish: r.typebotKeywordFinish,
    typebotKeywordRestart: r.typebotKeywordRestart,
    typebotRestartMessage: r.typebotRestartMessage,
    typebotSlug: r.typebotSlug,
    typebotUnknownMessage: r.typebotUnknownMessage,
    ...(admin && r.signingSecret ? { signingSecret: openSecret(key, r.signingSecret) } : {}),
    updatedAt: r.updatedAt.toISOString(),
  };
}

function openSecret(key: SecretKey, sealed: string): string {
  try {
    return decryptSecret(key, sealed);
  } catch {
    return '';
  }
}

/** Events reach every member, so they never carry the signing secret. */
function emit(
  ctx: ServiceContext,
  key: SecretKey,
  payload: { action: 'create' | 'update'; row: Row } | { id: number },
) {
  const event = companyEvent.queueIntegration(ctx.companyId);
  if ('id' in payload) ctx.realtime.toCompany(ctx.companyId, event, { action: 'delete', integrationId: payload.id });
  else
    ctx.realtime.toCompany(ctx.companyId, event, {
      action: payload.action,
      queueIntegration: toView(key, payload.row, false),
    });
}

/** The integration a connection, queue or ticket names is the caller's company's (null: none). */
export const assertIntegrationOfCompany = (db: Db, companyId: number, id: number | null | undefined) =>
  assertOwned(db, queueIntegrations, companyId, [id], 'ERR_NO_INTEGRATION_FOUND');

async function findRow(db: Db, companyId: number, id: number): Promise<Row> {
  const [row] = await db
    .select()
    .from(queueIntegrations)
    .where(and(eq(queueIntegrations.id, id), eq(queueIntegrations.companyId, companyId)));
  if (!row) throw new AppError('ERR_NO_INTEGRATION_FOUND');
  return row;
}

export async function listIntegrations(
  ctx: ServiceContext,
  key: SecretKey,
  q: { searchParam?: string; pageNumber?: number },
): Promise<QueueIntegrationsPage | QueueIntegration[]> {
  const paged = q.pageNumber !== undefined || q.searchParam !== undefined;
  const { limit, offset, size } = paged ? pageWindow(q.pageNumber ?? 1) : { limit: WHOLE_LIST_CAP, offset: 0, size: 0 };
  const where = and(
    eq(queueIntegrations.companyId, ctx.companyId),
    q.searchParam ? sql`lower(${queueIntegrations.name}) like ${likePattern(q.searchParam)}` : undefined,
  );
  const rowsQuery = ctx.db
    .select()
    .from(queueIntegrations)
    .where(where)
    .orderBy(asc(queueIntegrations.name), asc(queueIntegrations.id))
    .limit(limit)
    .offset(offset);
  const admin = isAdmin(ctx);
  if (!paged) return (await rowsQuery).map((r) => toView(key, r, admin));
  const [rows, [{ total }]] = await Promise.all([
    rowsQuery,
    ctx.db.select({ total: count() }).from(queueIntegrations).where(where),
  ]);
  const page = pageOf(rows, size);
  return { queueIntegrations: page.items.map((r) => toView(key, r, admin)), count: total, hasMore: page.hasMore };
}

export async function findIntegration(ctx: ServiceContext, key: SecretKey, id: number): Promise<QueueIntegration> {
  return toView(key, await findRow(ctx.db, ctx.companyId, id), isAdmin(ctx));
}

/** Dialogflow's service-account JSON: parsed to refuse what can never authenticate, and to show its e-mail. */
export function readCredentials(json: string): { clientEmail: string; projectId: string } {
  const invalid = () =>
    new AppError('ERR_VALIDATION', {
      fields: [{ path: 'jsonContent', message: 'JSON de conta de serviço inválido' }],
    });
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw invalid();
  }
  const v = value as Record<string, unknown>;
  if (!v || typeof v.client_email !== 'string' || typeof v.private_key !== 'string') throw invalid();
  return { clientEmail: v.client_email, projectId: typeof v.project_id === 'string' ? v.project_id : '' };
}

/** The columns of an input over the current row: secrets sealed, the rules of spec part 2 §5 checked. */
function columnsOf(key: SecretKey, input: QueueIntegrationUpdate, current: Row | undefined) {
  const { jsonContent, ...rest } = input;
  const type: IntegrationType = input.type ?? (current?.type as IntegrationType);
  const name = input.name ?? current?.name ?? '';
  const merged = {
    type,
    urlN8N: input.urlN8N ?? current?.urlN8N ?? '',
    typebotSlug: input.typebotSlug ?? current?.typebotSlug ?? '',
    hasCredentials: jsonContent ? true : Boolean(current?.jsonContent) && current?.type === 'dialogflow',
  };
  const issues = integrationIssues(merged);
  if (issues.length) throw new AppError('ERR_VALIDATION', { fields: issues });
  const credentials = jsonContent && type === 'dialogflow' ? readCredentials(jsonContent) : undefined;
  const projectName =
    projectNameOf(type, name, input.projectName ?? current?.projectName ?? '') || credentials?.projectId || '';
  if (type === 'dialogflow' && !projectName) {
    throw new AppError('ERR_VALIDATION', { fields: [{ path: 'projectName', message: 'Obrigatório' }] });
  }
  const needsSecret = (type === 'n8n' || type === 'webhook') && !current?.signingSecret;
  return {
    ...rest,
    projectName,
    ...(credentials
      ? { jsonContent: encryptSecret(key, jsonContent ?? ''), jsonContentClientEmail: credentials.clientEmail }
      : {}),
    // Another type keeps no Dialogflow credentials.
    ...(type !== 'dialogflow' ? { jsonContent: '', jsonContentClientEmail: '' } : {}),
    ...(needsSecret ? { signingSecret: encryptSecret(key, randomBytes(32).toString('hex')) } : {}),
  };
}

export async function createIntegration(
  ctx: ServiceContext,
  key: SecretKey,
  input: QueueIntegrationInput,
): Promise<QueueIntegration> {
  const [row] = await ctx.db
    .insert(queueIntegrations)
    .values({ ...columnsOf(key, input, undefined), type: input.type, name: input.name, companyId: ctx.companyId })
    .returning();
  emit(ctx, key, { action: 'create', row });
  return toView(key, row, true);
}

export async function updateIntegration(
  ctx: ServiceContext,
  key: SecretKey,
  id: number,
  input: QueueIntegrationUpdate,
): Promise<QueueIntegration> {
  const current = await findRow(ctx.db, ctx.companyId, id);
  const [row] = await ctx.db
    .update(queueIntegrations)
    .set({ ...columnsOf(key, input, current), updatedAt: new Date() })
    .where(and(eq(queueIntegrations.id, id), eq(queueIntegrations.companyId, ctx.companyId)))
    .returning();
  emit(ctx, key, { action: 'update', row });
  return toView(key, row, true);
}

/** Deleting an integration takes it off the connections and queues that named it; its bot sessions go with it. */
export async function deleteIntegration(ctx: ServiceContext, key: SecretKey, id: number): Promise<void> {
  await findRow(ctx.db, ctx.companyId, id);
  await ctx.db
    .delete(queueIntegrations)
    .where(and(eq(queueIntegrations.id, id), eq(queueIntegrations.companyId, ctx.companyId)));
  await detachIntegrationFromWhatsapps(ctx, id);
  await detachIntegrationFromQueues(ctx, id);
  emit(ctx, key, { id });
}

/** The integration as a bot client needs it, secrets in clear; null when gone or unreadable (key changed). */
export function botIntegrationOf(key: SecretKey, row: Row): BotIntegration | null {
  const jsonContent = row.jsonContent ? openSecret(key, row.jsonContent) : '';
  if (row.type === 'dialogflow' && !jsonContent) return null;
  return {
    id: row.id,
    companyId: row.companyId,
    type: row.type,
    name: row.name,
    projectName: row.projectName,
    jsonContent,
    language: row.language,
    url: row.urlN8N,
    typebotSlug: row.typebotSlug,
    signingSecret: row.signingSecret ? openSecret(key, row.signingSecret) : '',
  };
}

export async function integrationRow(db: Db, companyId: number, id: number): Promise<Row | undefined> {
  const [row] = await db
    .select()
    .from(queueIntegrations)
    .where(and(eq(queueIntegrations.id, id), eq(queueIntegrations.companyId, companyId)));
  return row;
}

/**
 * What `testSession` calls: a saved integration (by id) with the dialog's unsaved fields over it, or
 * the dialog's fields alone. Validated as a save would be, never stored.
 */
export async function integrationForTest(
  ctx: ServiceContext,
  key: SecretKey,
  input: QueueIntegrationUpdate & { id?: number },
): Promise<BotIntegration> {
  const { id, ...fields } = input;
  const current = id !== undefined ? await findRow(ctx.db, ctx.companyId, id) : undefined;
  if (!current && !fields.type) {
    throw new AppError('ERR_VALIDATION', { fields: [{ path: 'type', message: 'Obrigatório' }] });
  }
  const columns = columnsOf(key, fields, current);
  const row: Row = {
    ...(current ?? {
      id: 0,
      companyId: ctx.companyId,
      name: fields.name ?? '',
      projectName: '',
      jsonContent: '',
      jsonContentClientEmail: '',
      language: 'pt-BR',
      urlN8N: '',
      typebotDelayMessage: 1000,
      typebotExpires: 1,
      typebotKeywordFinish: '',
      typebotKeywordRestart: '',
      typebotRestartMessage: '',
      typebotSlug: '',
      typebotUnknownMessage: '',
      signingSecret: '',
      createdAt: new Date(),
      updatedAt: new Date(),
    }),
    ...columns,
  } as Row;
  const bot = botIntegrationOf(key, row);
  if (!bot) throw new AppError('ERR_VALIDATION', { fields: [{ path: 'jsonContent', message: 'Obrigatório' }] });
  return bot;
}
