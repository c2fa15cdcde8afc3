import {
  companyEvent,
  type Setting,
  type SettingKey,
  secretSettingKeys,
  settingDefaults,
  settingValues,
} from '@balcao/shared';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { AppError } from '../../platform/errors/app-error.js';
import { type Realtime, rooms } from '../../platform/realtime/realtime.js';
import type { ServiceContext } from '../../platform/tenancy/context.js';
import { settings } from './settings.schema.js';

const isKnownKey = (key: string): key is SettingKey => Object.hasOwn(settingValues, key);
const isSecret = (key: SettingKey) => secretSettingKeys.includes(key);

/** Every known setting of a company: stored values over the defaults; credentials for admins only. */
export async function listSettings(db: Db, companyId: number, opts: { admin: boolean }): Promise<Setting[]> {
  const stored = await db
    .select({ key: settings.key, value: settings.value })
    .from(settings)
    .where(eq(settings.companyId, companyId));
  const byKey = new Map(stored.map((s) => [s.key, s.value]));
  const keys = (Object.keys(settingDefaults) as SettingKey[]).filter((k) => opts.admin || !isSecret(k));
  return keys.map((key) => ({
    key,
    value: byKey.get(key) ?? settingDefaults[key],
  }));
}

export async function getSetting(db: Db, companyId: number, key: SettingKey): Promise<string> {
  const [row] = await db
    .select({ value: settings.value })
    .from(settings)
    .where(and(eq(settings.companyId, companyId), eq(settings.key, key)))
    .limit(1);
  return row?.value ?? settingDefaults[key];
}

export async function updateSetting(ctx: ServiceContext, key: string, value: string): Promise<Setting> {
  if (!isKnownKey(key)) throw new AppError('ERR_NO_SETTING_FOUND', { key });
  const parsed = settingValues[key].safeParse(value);
  if (!parsed.success) {
    throw new AppError(
      'ERR_VALIDATION',
      { fields: [{ path: 'value', message: 'invalid value' }] },
      `Invalid value for ${key}`,
    );
  }
  await ctx.db
    .insert(settings)
    .values({ companyId: ctx.companyId, key, value: parsed.data })
    .onConflictDoUpdate({
      target: [settings.companyId, settings.key],
      set: { value: parsed.data, updatedAt: new Date() },
    });
  emitSetting(ctx.realtime, ctx.companyId, key, parsed.data);
  return { key, value: parsed.data };
}

/**
 * Mirrors GET /settings: a plain setting goes to the whole company with its value; a credential
 * only to the admins, who read it there, and by key alone: secret values never travel in events.
 */
function emitSetting(realtime: Realtime, companyId: number, key: SettingKey, value: string) {
  const event = companyEvent.settings(companyId);
  if (isSecret(key)) realtime.toRooms([rooms.admins(companyId)], event, { action: 'update', setting: { key } });
  else realtime.toCompany(companyId, event, { action: 'update', setting: { key, value } });
}
