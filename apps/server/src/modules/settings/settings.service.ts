import {
  companyEvent,
  type EncryptedSettingKey,
  isEncryptedSettingKey,
  type Setting,
  type SettingKey,
  secretSettingKeys,
  settingDefaults,
  settingValues,
} from '@balcao/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import { AppError } from '../../platform/errors/app-error.js';
import { type Realtime, rooms } from '../../platform/realtime/realtime.js';
import { decryptSecret, encryptSecret, isEncrypted } from '../../platform/secrets.js';
import type { ServiceContext } from '../../platform/tenancy/context.js';
import { settings } from './settings.schema.js';

const isKnownKey = (key: string): key is SettingKey => Object.hasOwn(settingValues, key);
const isSecret = (key: SettingKey) => secretSettingKeys.includes(key);

/** Values this short show no last four characters: they would give away too much of them. */
const LAST4_MIN_LENGTH = 12;

/**
 * What admins see of a write-only credential (`encryptedSettingKeys`): never its value, whether it
 * is set and, when its clear value can be read (a `secretsKey`, or an older row stored in clear),
 * its last four characters. A clear non-empty row counts as set.
 */
function maskedCredential(key: EncryptedSettingKey, stored: string | undefined, secretsKey?: Buffer): Setting {
  if (!stored) return { key, value: '', isSet: false };
  let clear: string | undefined = stored;
  if (isEncrypted(stored)) {
    try {
      clear = secretsKey && decryptSecret(secretsKey, stored);
    } catch {
      clear = undefined; // set, but not readable with this key: no last four
    }
  }
  return { key, value: '', isSet: true, ...(clear && clear.length >= LAST4_MIN_LENGTH && { last4: clear.slice(-4) }) };
}

/**
 * Every known setting of a company: stored values over the defaults; the integration settings for
 * admins only, and its tokens masked (`isSet`, and `last4` when `secretsKey` is given).
 */
export async function listSettings(
  db: Db,
  companyId: number,
  opts: { admin: boolean; secretsKey?: Buffer },
): Promise<Setting[]> {
  const stored = await db
    .select({ key: settings.key, value: settings.value })
    .from(settings)
    .where(eq(settings.companyId, companyId));
  const byKey = new Map(stored.map((s) => [s.key, s.value]));
  const keys = (Object.keys(settingDefaults) as SettingKey[]).filter((k) => opts.admin || !isSecret(k));
  return keys.map((key) =>
    isEncryptedSettingKey(key)
      ? maskedCredential(key, byKey.get(key), opts.secretsKey)
      : { key, value: byKey.get(key) ?? settingDefaults[key] },
  );
}

async function storedValue(db: Db, companyId: number, key: SettingKey): Promise<string | undefined> {
  const [row] = await db
    .select({ value: settings.value })
    .from(settings)
    .where(and(eq(settings.companyId, companyId), eq(settings.key, key)))
    .limit(1);
  return row?.value;
}

/**
 * A plain setting of the company `companyId` (a column of the statement it rides in), or its
 * default: for statements that read it beside other rows instead of in a round trip of its own.
 */
export const settingSql = (companyId: AnyPgColumn, key: Exclude<SettingKey, EncryptedSettingKey>) =>
  sql<string>`coalesce((select s.value from ${settings} s where s.company_id = ${companyId} and s.key = ${key}
    limit 1), ${settingDefaults[key]})`;

/** A plain setting's value (credentials are read with `getCredentialSetting`). */
export async function getSetting(
  db: Db,
  companyId: number,
  key: Exclude<SettingKey, EncryptedSettingKey>,
): Promise<string> {
  return (await storedValue(db, companyId, key)) ?? settingDefaults[key];
}

/**
 * The clear value of an integration token, '' when not set, for server code that calls the
 * integration; an older row stored in clear is returned as it is. Never send it to a client.
 */
export async function getCredentialSetting(
  db: Db,
  secretsKey: Buffer,
  companyId: number,
  key: EncryptedSettingKey,
): Promise<string> {
  const stored = await storedValue(db, companyId, key);
  if (!stored) return '';
  return isEncrypted(stored) ? decryptSecret(secretsKey, stored) : stored;
}

/**
 * Saves a setting. An integration token is stored encrypted with `secretsKey` (an empty value
 * clears it) and answered masked, like `GET /settings` shows it.
 */
export async function updateSetting(
  ctx: ServiceContext,
  secretsKey: Buffer,
  key: string,
  value: string,
): Promise<Setting> {
  if (!isKnownKey(key)) throw new AppError('ERR_NO_SETTING_FOUND', { key });
  const parsed = settingValues[key].safeParse(value);
  if (!parsed.success) {
    throw new AppError(
      'ERR_VALIDATION',
      { fields: [{ path: 'value', message: 'invalid value' }] },
      `Invalid value for ${key}`,
    );
  }
  const credential = isEncryptedSettingKey(key);
  if (credential && parsed.data === '') {
    await ctx.db.delete(settings).where(and(eq(settings.companyId, ctx.companyId), eq(settings.key, key)));
  } else {
    const stored = credential ? encryptSecret(secretsKey, parsed.data) : parsed.data;
    await ctx.db
      .insert(settings)
      .values({ companyId: ctx.companyId, key, value: stored })
      .onConflictDoUpdate({
        target: [settings.companyId, settings.key],
        set: { value: stored, updatedAt: new Date() },
      });
  }
  emitSetting(ctx.realtime, ctx.companyId, key, parsed.data);
  return credential ? maskedCredential(key, parsed.data) : { key, value: parsed.data };
}

/**
 * Mirrors GET /settings: a plain setting goes to the whole company with its value; an integration
 * setting only to the admins, by key alone (they read it again): its value never travels in events.
 */
function emitSetting(realtime: Realtime, companyId: number, key: SettingKey, value: string) {
  const event = companyEvent.settings(companyId);
  if (isSecret(key)) realtime.toRooms([rooms.admins(companyId)], event, { action: 'update', setting: { key } });
  else realtime.toCompany(companyId, event, { action: 'update', setting: { key, value } });
}
