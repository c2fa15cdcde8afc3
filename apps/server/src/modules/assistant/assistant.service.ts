import {
  ASSISTANT_DEFAULTS,
  type AssistantAuthInput,
  type AssistantEntry,
  type AssistantMessageReply,
  type AssistantState,
  type AssistantUsage,
  assistantMsg,
} from '@balcao/shared';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import { decoyHash, verifyPassword } from '../../platform/auth/passwords.js';
import type { RateLimiter } from '../../platform/auth/rate-limiter.js';
import { AppError } from '../../platform/errors/app-error.js';
import { type ChatMessage, createOpenAiClient } from '../../platform/openai.js';
import { decryptSecret, encryptSecret } from '../../platform/secrets.js';
import { localTime } from '../../platform/templates.js';
import type { ServiceContext } from '../../platform/tenancy/context.js';
import { getSetting } from '../settings/settings.service.js';
import { users } from '../users/users.schema.js';
import { assistantAccounts, assistantDailyLimits, assistantHistory, assistantTokens } from './assistant.schema.js';

/** What the widget's rules need beyond the caller: the secrets' key, the provider and the clock. */
export interface AssistantDeps {
  /** The key that encrypts the personal tokens (platform/secrets `encryptionKeyOf`). */
  key: Buffer;
  openai: { baseUrl: string; timeoutMs: number };
  /** Counts failed "auth" steps per user; `maxFailures` within its window lock the step. */
  limiter: RateLimiter;
  maxFailures: number;
  now: () => Date;
}

type Owner = Pick<ServiceContext, 'db' | 'companyId' | 'userId'>;

/** The caller's own rows of a widget table: its company and its user, never an id from the request. */
const ownRow = (table: { companyId: AnyPgColumn; userId: AnyPgColumn }, o: Owner) =>
  and(eq(table.companyId, o.companyId), eq(table.userId, o.userId));

/** The calendar day (`yyyy-mm-dd`) of `now` in the company's time zone (setting `timezone`). */
export async function dayOf(db: Db, companyId: number, now: Date): Promise<string> {
  const t = localTime(now, await getSetting(db, companyId, 'timezone'));
  return `${t.year}-${t.month}-${t.day}`;
}

async function usageOn(o: Owner, day: string): Promise<AssistantUsage> {
  const [row] = await o.db
    .select({ count: assistantDailyLimits.count, limit: assistantDailyLimits.limit })
    .from(assistantDailyLimits)
    .where(and(ownRow(assistantDailyLimits, o), eq(assistantDailyLimits.day, day)));
  const limit = row?.limit ?? ASSISTANT_DEFAULTS.dailyLimit;
  return { remaining: Math.max(0, limit - (row?.count ?? 0)), limit };
}

/**
 * Takes one message of the day's quota in one statement (a new day starts at count 0 and limit 20):
 * the row is created, or its count raised only while below its limit, so concurrent sends can never
 * take more than the limit. Null when the quota is used up.
 */
async function reserve(o: Owner, day: string): Promise<AssistantUsage | null> {
  const [row] = await o.db
    .insert(assistantDailyLimits)
    .values({ userId: o.userId, companyId: o.companyId, day, count: 1, limit: ASSISTANT_DEFAULTS.dailyLimit })
    .onConflictDoUpdate({
      target: [assistantDailyLimits.userId, assistantDailyLimits.day],
      set: { count: sql`${assistantDailyLimits.count} + 1` },
      setWhere: sql`${assistantDailyLimits.count} < ${assistantDailyLimits.limit}`,
    })
    .returning({ count: assistantDailyLimits.count, limit: assistantDailyLimits.limit });
  return row ? { remaining: Math.max(0, row.limit - row.count), limit: row.limit } : null;
}

/** Gives back a reserved message when the provider did not answer. */
async function release(o: Owner, day: string): Promise<void> {
  await o.db
    .update(assistantDailyLimits)
    .set({ count: sql`greatest(${assistantDailyLimits.count} - 1, 0)` })
    .where(and(ownRow(assistantDailyLimits, o), eq(assistantDailyLimits.day, day)));
}

/** The widget is signed in for the caller's product session only. */
async function isSignedIn(ctx: ServiceContext): Promise<boolean> {
  const [row] = await ctx.db
    .select({ sessionId: assistantAccounts.sessionId })
    .from(assistantAccounts)
    .where(ownRow(assistantAccounts, ctx));
  return row?.sessionId === ctx.sessionId;
}

export async function assertSignedIn(ctx: ServiceContext): Promise<void> {
  if (!(await isSignedIn(ctx))) throw new AppError('ERR_ASSISTANT_SIGNED_OUT');
}

async function historyOf(o: Owner): Promise<AssistantEntry[]> {
  const rows = await o.db
    .select({ role: assistantHistory.role, content: assistantHistory.content, createdAt: assistantHistory.createdAt })
    .from(assistantHistory)
    .where(ownRow(assistantHistory, o))
    .orderBy(asc(assistantHistory.id));
  return rows.map((r) => ({ role: r.role, content: r.content, timestamp: r.createdAt.toISOString() }));
}

async function hasToken(o: Owner): Promise<boolean> {
  const [row] = await o.db
    .select({ userId: assistantTokens.userId })
    .from(assistantTokens)
    .where(ownRow(assistantTokens, o));
  return Boolean(row);
}

export async function getAssistantState(
  ctx: ServiceContext,
  deps: Pick<AssistantDeps, 'now'>,
): Promise<AssistantState> {
  const signedIn = await isSignedIn(ctx);
  const [token, usage, history] = await Promise.all([
    hasToken(ctx),
    usageOn(ctx, await dayOf(ctx.db, ctx.companyId, deps.now())),
    signedIn ? historyOf(ctx) : Promise.resolve([]),
  ]);
  return { signedIn, hasToken: token, usage, history };
}

/**
 * The widget's "auth" step: the caller's own e-mail and password (DOMAIN §19). The password is
 * checked even when the e-mail is not the caller's, so timing tells nothing; failures are counted.
 */
export async function signInAssistant(
  ctx: ServiceContext,
  deps: AssistantDeps,
  input: AssistantAuthInput,
): Promise<AssistantState> {
  const failures = `assistant-auth:${ctx.userId}`;
  if ((await deps.limiter.count(failures)) >= deps.maxFailures) {
    throw new AppError('ERR_TOO_MANY_REQUESTS', {}, 'Too many login attempts, try again later');
  }
  const [row] = await ctx.db
    .select({ email: users.email, hash: users.passwordHash })
    .from(users)
    .where(and(eq(users.id, ctx.userId), eq(users.companyId, ctx.companyId)))
    .limit(1);
  const sameEmail = row?.email.toLowerCase() === input.username.trim().toLowerCase();
  const ok = await verifyPassword(sameEmail && row ? row.hash : await decoyHash, input.password);
  if (!sameEmail || !ok) {
    await deps.limiter.hit(failures);
    throw new AppError('ERR_ASSISTANT_INVALID_CREDENTIALS', {}, assistantMsg.wrongCredentials);
  }
  await deps.limiter.reset(failures);
  const signedInAt = deps.now();
  await ctx.db
    .insert(assistantAccounts)
    .values({ userId: ctx.userId, companyId: ctx.companyId, sessionId: ctx.sessionId, signedInAt })
    .onConflictDoUpdate({ target: assistantAccounts.userId, set: { sessionId: ctx.sessionId, signedInAt } });
  return getAssistantState(ctx, deps);
}

/** Logout: the widget signs out and its history is cleared (the stored token stays). */
export async function signOutAssistant(ctx: ServiceContext, deps: Pick<AssistantDeps, 'now'>): Promise<AssistantState> {
  await ctx.db.transaction(async (tx) => {
    await tx.delete(assistantHistory).where(ownRow(assistantHistory, ctx));
    await tx.update(assistantAccounts).set({ sessionId: null }).where(ownRow(assistantAccounts, ctx));
  });
  return getAssistantState(ctx, deps);
}

/** Stores the personal provider token, encrypted; only its existence is ever told. */
export async function saveAssistantToken(
  ctx: ServiceContext,
  deps: Pick<AssistantDeps, 'key' | 'now'>,
  token: string,
): Promise<{ hasToken: true }> {
  await assertSignedIn(ctx);
  const sealed = encryptSecret(deps.key, token);
  const lastUpdated = deps.now();
  await ctx.db
    .insert(assistantTokens)
    .values({ userId: ctx.userId, companyId: ctx.companyId, token: sealed, lastUpdated })
    .onConflictDoUpdate({ target: assistantTokens.userId, set: { token: sealed, lastUpdated } });
  return { hasToken: true };
}

/** The token in clear; "Token não configurado" when none is stored or it cannot be read (key changed). */
async function tokenOf(o: Owner, key: Buffer): Promise<string> {
  const [row] = await o.db
    .select({ token: assistantTokens.token })
    .from(assistantTokens)
    .where(ownRow(assistantTokens, o));
  if (!row) throw new AppError('ERR_ASSISTANT_NO_TOKEN', {}, assistantMsg.noToken);
  try {
    return decryptSecret(key, row.token);
  } catch {
    throw new AppError('ERR_ASSISTANT_NO_TOKEN', {}, assistantMsg.noToken);
  }
}

/**
 * One chat-completion call on the caller's quota and token: the quota is taken first (over quota:
 * nothing is sent), given back when the provider fails. Returns the answer's text.
 */
export async function completeWithQuota(
  ctx: ServiceContext,
  deps: AssistantDeps,
  messages: ChatMessage[],
): Promise<{ content: string; usage: AssistantUsage }> {
  const apiKey = await tokenOf(ctx, deps.key);
  const day = await dayOf(ctx.db, ctx.companyId, deps.now());
  const usage = await reserve(ctx, day);
  if (!usage) {
    throw new AppError(
      'ERR_ASSISTANT_DAILY_LIMIT',
      { usage: { remaining: 0, limit: ASSISTANT_DEFAULTS.dailyLimit } },
      assistantMsg.overQuota,
    );
  }
  try {
    const client = createOpenAiClient({ ...deps.openai, apiKey, retries: 1 });
    const answer = await client.chat({
      model: ASSISTANT_DEFAULTS.model,
      temperature: ASSISTANT_DEFAULTS.temperature,
      messages,
    });
    if (!answer.content.trim()) throw new Error('empty answer');
    return { content: answer.content, usage };
  } catch {
    await release(ctx, day);
    throw new AppError('ERR_ASSISTANT_PROVIDER', { usage: await usageOn(ctx, day) }, assistantMsg.providerFailure);
  }
}

/** The widget's chat: the whole history plus the new message; both are kept once answered. */
export async function sendAssistantMessage(
  ctx: ServiceContext,
  deps: AssistantDeps,
  content: string,
): Promise<AssistantMessageReply> {
  await assertSignedIn(ctx);
  const history = await historyOf(ctx);
  const answer = await completeWithQuota(ctx, deps, [
    ...history.map((h) => ({ role: h.role, content: h.content })),
    { role: 'user', content },
  ]);
  const [asked, answered] = await ctx.db.transaction(async (tx) => {
    const [q] = await tx
      .insert(assistantHistory)
      .values({ companyId: ctx.companyId, userId: ctx.userId, role: 'user', content })
      .returning();
    const [a] = await tx
      .insert(assistantHistory)
      .values({ companyId: ctx.companyId, userId: ctx.userId, role: 'assistant', content: answer.content })
      .returning();
    return [q, a];
  });
  const entry = (r: typeof asked): AssistantEntry => ({
    role: r.role,
    content: r.content,
    timestamp: r.createdAt.toISOString(),
  });
  return { message: entry(asked), reply: entry(answered), usage: answer.usage };
}
