import type { Prompt, PromptInput, PromptUpdate } from '@balcao/shared';
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { AppError } from '../../platform/errors/app-error.js';
import { decryptSecret, encryptSecret } from '../../platform/secrets.js';
import type { ServiceContext } from '../../platform/tenancy/context.js';
import { assertOwned } from '../../platform/tenancy/owned.js';
import { assertQueuesOfCompany, detachPromptFromQueues, listQueues } from '../queues/queues.service.js';
import { detachPromptFromWhatsapps } from '../whatsapp/whatsapp.service.js';
import { prompts } from './prompts.schema.js';

type Row = typeof prompts.$inferSelect;

/** The key that encrypts the prompts' secrets (platform/secrets `encryptionKeyOf`). */
export type SecretKey = Buffer;

/** What a secret's owner may see of it: its last 4 characters. */
function last4(key: SecretKey, sealed: string): string {
  if (!sealed) return '';
  try {
    return decryptSecret(key, sealed).slice(-4);
  } catch {
    return '';
  }
}

function toPrompt(key: SecretKey, r: Row, queueNames: Map<number, string>): Prompt {
  const queueName = r.queueId === null ? undefined : queueNames.get(r.queueId);
  return {
    id: r.id,
    name: r.name,
    prompt: r.prompt,
    voice: r.voice,
    voiceRegion: r.voiceRegion,
    maxTokens: r.maxTokens,
    temperature: r.temperature,
    maxMessages: r.maxMessages,
    model: r.model,
    queueId: r.queueId,
    queue: r.queueId !== null && queueName !== undefined ? { id: r.queueId, name: queueName } : null,
    apiKeyLast4: last4(key, r.apiKey),
    voiceKeyLast4: last4(key, r.voiceKey),
    updatedAt: r.updatedAt.toISOString(),
  };
}

async function queueNamesOf(db: Db, companyId: number) {
  return new Map((await listQueues(db, companyId)).map((q) => [q.id, q.name]));
}

/**
 * The prompt a connection, queue or ticket names is the caller's company's: another company's (or
 * nobody's) is not found. Null and undefined mean "no prompt".
 */
export const assertPromptOfCompany = (db: Db, companyId: number, id: number | null | undefined) =>
  assertOwned(db, prompts, companyId, [id], 'ERR_NO_PROMPT_FOUND');

async function findRow(db: Db, companyId: number, id: number): Promise<Row> {
  const [row] = await db
    .select()
    .from(prompts)
    .where(and(eq(prompts.id, id), eq(prompts.companyId, companyId)));
  if (!row) throw new AppError('ERR_NO_PROMPT_FOUND');
  return row;
}

export async function listPrompts(ctx: ServiceContext, key: SecretKey): Promise<{ prompts: Prompt[] }> {
  const [rows, names] = await Promise.all([
    ctx.db
      .select()
      .from(prompts)
      .where(eq(prompts.companyId, ctx.companyId))
      .orderBy(asc(prompts.name), asc(prompts.id)),
    queueNamesOf(ctx.db, ctx.companyId),
  ]);
  return { prompts: rows.map((r) => toPrompt(key, r, names)) };
}

export async function findPrompt(ctx: ServiceContext, key: SecretKey, id: number): Promise<Prompt> {
  const row = await findRow(ctx.db, ctx.companyId, id);
  return toPrompt(key, row, await queueNamesOf(ctx.db, ctx.companyId));
}

/** The columns of an input: secrets encrypted; a voice key sent empty clears it. */
function columnsOf(key: SecretKey, input: PromptUpdate) {
  const { apiKey, voiceKey, ...rest } = input;
  return {
    ...rest,
    ...(apiKey !== undefined ? { apiKey: encryptSecret(key, apiKey) } : {}),
    ...(voiceKey !== undefined ? { voiceKey: voiceKey ? encryptSecret(key, voiceKey) : '' } : {}),
  };
}

export async function createPrompt(ctx: ServiceContext, key: SecretKey, input: PromptInput): Promise<Prompt> {
  await assertQueuesOfCompany(ctx.db, ctx.companyId, [input.queueId]);
  const [row] = await ctx.db
    .insert(prompts)
    .values({
      ...input,
      apiKey: encryptSecret(key, input.apiKey),
      voiceKey: input.voiceKey ? encryptSecret(key, input.voiceKey) : '',
      companyId: ctx.companyId,
    })
    .returning();
  return toPrompt(key, row, await queueNamesOf(ctx.db, ctx.companyId));
}

export async function updatePrompt(
  ctx: ServiceContext,
  key: SecretKey,
  id: number,
  input: PromptUpdate,
): Promise<Prompt> {
  const current = await findRow(ctx.db, ctx.companyId, id);
  if (input.queueId !== undefined && input.queueId !== current.queueId) {
    await assertQueuesOfCompany(ctx.db, ctx.companyId, [input.queueId]);
  }
  const [row] = await ctx.db
    .update(prompts)
    .set(columnsOf(key, input))
    .where(and(eq(prompts.id, id), eq(prompts.companyId, ctx.companyId)))
    .returning();
  return toPrompt(key, row, await queueNamesOf(ctx.db, ctx.companyId));
}

/** Deleting a prompt takes it off the connections and queues that named it. */
export async function deletePrompt(ctx: ServiceContext, id: number): Promise<void> {
  await findRow(ctx.db, ctx.companyId, id);
  await ctx.db.delete(prompts).where(and(eq(prompts.id, id), eq(prompts.companyId, ctx.companyId)));
  await detachPromptFromWhatsapps(ctx, id);
  await detachPromptFromQueues(ctx, id);
}

/** A prompt as the assistant uses it: the OpenAI key in clear. */
export interface AssistantPrompt {
  id: number;
  companyId: number;
  name: string;
  prompt: string;
  apiKey: string;
  maxTokens: number;
  temperature: number;
  maxMessages: number;
  model: string;
  queueId: number | null;
}

/**
 * The company's prompt `id` for the assistant, its key decrypted at each call (a changed key takes
 * effect at once); null when the prompt is gone or its key cannot be read (ENCRYPTION_KEY changed).
 */
export async function promptForAssistant(
  db: Db,
  key: SecretKey,
  companyId: number,
  id: number,
): Promise<AssistantPrompt | null> {
  const [row] = await db
    .select()
    .from(prompts)
    .where(and(eq(prompts.id, id), eq(prompts.companyId, companyId)));
  if (!row) return null;
  let apiKey: string;
  try {
    apiKey = decryptSecret(key, row.apiKey);
  } catch {
    return null;
  }
  return {
    id: row.id,
    companyId: row.companyId,
    name: row.name,
    prompt: row.prompt,
    apiKey,
    maxTokens: row.maxTokens,
    temperature: row.temperature,
    maxMessages: row.maxMessages,
    model: row.model,
    queueId: row.queueId,
  };
}
