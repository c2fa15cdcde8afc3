import { type CampaignSettings, campaignSettingDefaults, campaignSettingsSchema } from '@balcao/shared';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import type { ServiceContext } from '../../platform/tenancy/context.js';
import { campaignSettings } from './campaigns.schema.js';

const defaults: CampaignSettings = { ...campaignSettingDefaults, variables: [] };
const KEYS = Object.keys(defaults) as (keyof CampaignSettings)[];

/** The company's settings, each key falling back to its default (a stored value that no longer parses too). */
export async function campaignSettingsOf(db: Db, companyId: number): Promise<CampaignSettings> {
  const rows = await db
    .select({ key: campaignSettings.key, value: campaignSettings.value })
    .from(campaignSettings)
    .where(eq(campaignSettings.companyId, companyId));
  const stored: Record<string, unknown> = {};
  for (const r of rows) {
    try {
      stored[r.key] = JSON.parse(r.value);
    } catch {
      // Left to its default below.
    }
  }
  const out = { ...defaults };
  for (const key of KEYS) {
    const parsed = campaignSettingsSchema.shape[key].safeParse(stored[key]);
    if (parsed.success) Object.assign(out, { [key]: parsed.data });
  }
  return out;
}

/** GET /campaign-settings: key/value records with the value as JSON text (spec part 2 §7). */
export async function listCampaignSettings(db: Db, companyId: number) {
  const settings = await campaignSettingsOf(db, companyId);
  return KEYS.map((key) => ({ key, value: JSON.stringify(settings[key]) }));
}

/** Writes the keys given, all in one statement. */
export async function saveCampaignSettings(ctx: ServiceContext, input: Partial<CampaignSettings>) {
  const values = KEYS.filter((k) => input[k] !== undefined).map((key) => ({
    companyId: ctx.companyId,
    key,
    value: JSON.stringify(input[key]),
  }));
  if (values.length > 0)
    await ctx.db
      .insert(campaignSettings)
      .values(values)
      .onConflictDoUpdate({
        target: [campaignSettings.companyId, campaignSettings.key],
        set: { value: sql`excluded.value`, updatedAt: new Date() },
      });
  return listCampaignSettings(ctx.db, ctx.companyId);
}
