import {
  type Company,
  type CompanyCreate,
  type CompanyUpdate,
  companyEvent,
  type WeeklyScheduleEntry as ScheduleEntry,
  settingDefaults,
} from '@balcao/shared';
import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import type { RowOf } from '../../db/columns.js';
import { hashPassword } from '../../platform/auth/passwords.js';
import { endSessions, sessionsWhere } from '../../platform/auth/sessions.js';
import { AppError } from '../../platform/errors/app-error.js';
import { likePattern, pageOf, pageWindow } from '../../platform/pagination.js';
import { forgetCallers } from '../../platform/tenancy/callers.js';
import { companyRefuses } from '../../platform/tenancy/company-access.js';
import type { Caller, ServiceContext } from '../../platform/tenancy/context.js';
import { plans } from '../plans/plans.schema.js';
import { getPlan } from '../plans/plans.service.js';
import { settings } from '../settings/settings.schema.js';
import { users } from '../users/users.schema.js';
import { companies } from './companies.schema.js';

/** Default company hours (spec part 2 §9): weekdays 08–18, Saturday 08–12, Sunday closed. */
export const defaultCompanySchedules: ScheduleEntry[] = [
  { weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '08:00', endTime: '18:00' },
  { weekday: 'Terça-feira', weekdayEn: 'tuesday', startTime: '08:00', endTime: '18:00' },
  { weekday: 'Quarta-feira', weekdayEn: 'wednesday', startTime: '08:00', endTime: '18:00' },
  { weekday: 'Quinta-feira', weekdayEn: 'thursday', startTime: '08:00', endTime: '18:00' },
  { weekday: 'Sexta-feira', weekdayEn: 'friday', startTime: '08:00', endTime: '18:00' },
  { weekday: 'Sábado', weekdayEn: 'saturday', startTime: '08:00', endTime: '12:00' },
  { weekday: 'Domingo', weekdayEn: 'sunday', startTime: '00:00', endTime: '00:00' },
];

const companyColumns = {
  id: companies.id,
  name: companies.name,
  email: companies.email,
  phone: companies.phone,
  status: companies.status,
  planId: companies.planId,
  planName: plans.name,
  dueDate: companies.dueDate,
  recurrence: companies.recurrence,
  trialExpiration: companies.trialExpiration,
  campaignsSetting: settings.value,
  createdAt: companies.createdAt,
  schedules: companies.schedules,
};

/** The setting comes from a left join: null when the company has not stored it. */
type CompanyRow = Omit<RowOf<typeof companyColumns>, 'campaignsSetting'> & { campaignsSetting: string | null };

function toCompany({ planName, campaignsSetting, ...r }: CompanyRow): Company {
  const campaigns = campaignsSetting ?? settingDefaults.campaignsEnabled;
  return {
    ...r,
    plan: { id: r.planId, name: planName },
    campaignsEnabled: campaigns === 'true',
    createdAt: r.createdAt.toISOString(),
  };
}

const selectCompanies = (db: Db) =>
  db
    .select(companyColumns)
    .from(companies)
    .innerJoin(plans, eq(plans.id, companies.planId))
    .leftJoin(settings, and(eq(settings.companyId, companies.id), eq(settings.key, 'campaignsEnabled')));

export async function getCompany(db: Db, caller: Caller, id: number): Promise<Company> {
  if (!caller.isSuper && caller.companyId !== id) throw new AppError('ERR_NO_PERMISSION');
  const [row] = await selectCompanies(db).where(eq(companies.id, id)).limit(1);
  if (!row) throw new AppError('ERR_NO_COMPANY_FOUND');
  return toCompany(row);
}

export async function listAllCompanies(db: Db): Promise<Company[]> {
  return (await selectCompanies(db).orderBy(asc(companies.name))).map(toCompany);
}

export async function listCompanies(db: Db, q: { searchParam: string; pageNumber: number }) {
  const { limit, offset, size } = pageWindow(q.pageNumber);
  const where = q.searchParam ? sql`lower(${companies.name}) like ${likePattern(q.searchParam)}` : undefined;
  const [rows, [{ total }]] = await Promise.all([
    selectCompanies(db).where(where).orderBy(asc(companies.name)).limit(limit).offset(offset),
    db.select({ total: count() }).from(companies).where(where),
  ]);
  const page = pageOf(rows, size);
  return { companies: page.items.map(toCompany), count: total, hasMore: page.hasMore };
}

async function assertNameFree(db: Db, name: string, exceptId?: number) {
  const [other] = await db
    .select({ id: companies.id })
    .from(companies)
    .where(sql`lower(${companies.name}) = ${name.toLowerCase()}`)
    .limit(1);
  if (other && other.id !== exceptId) throw new AppError('ERR_DUPLICATED_NAME');
}

/**
 * A new company with its first admin (e-mail of the company, name and password chosen by the super
 * user) and its settings, all in one transaction.
 */
export async function createCompany(ctx: ServiceContext, input: CompanyCreate): Promise<Company> {
  await getPlan(ctx.db, input.planId);
  await assertNameFree(ctx.db, input.name);
  const [taken] = await ctx.db.select({ id: users.id }).from(users).where(eq(users.email, input.email)).limit(1);
  if (taken) throw new AppError('ERR_DUPLICATED_EMAIL');
  const passwordHash = await hashPassword(input.password);
  const id = await ctx.db.transaction(async (tx) => {
    const [company] = await tx
      .insert(companies)
      .values({
        name: input.name,
        email: input.email,
        phone: input.phone,
        planId: input.planId,
        status: input.status,
        dueDate: input.dueDate,
        recurrence: input.recurrence,
        trialExpiration: input.trialExpiration,
        schedules: defaultCompanySchedules,
      })
      .returning({ id: companies.id });
    await tx.insert(users).values({
      companyId: company.id,
      name: input.adminName ?? input.name.slice(0, 50),
      email: input.email,
      passwordHash,
      profile: 'admin',
    });
    const campaigns =
      input.campaignsEnabled === undefined ? settingDefaults.campaignsEnabled : String(input.campaignsEnabled);
    await tx.insert(settings).values({ companyId: company.id, key: 'campaignsEnabled', value: campaigns });
    return company.id;
  });
  return getCompany(ctx.db, ctx, id);
}

export async function updateCompany(ctx: ServiceContext, id: number, input: CompanyUpdate): Promise<Company> {
  await getCompany(ctx.db, ctx, id);
  if (input.planId) await getPlan(ctx.db, input.planId);
  if (input.name) await assertNameFree(ctx.db, input.name, id);
  const { campaignsEnabled, ...fields } = input;
  await ctx.db.transaction(async (tx) => {
    if (Object.keys(fields).length) await tx.update(companies).set(fields).where(eq(companies.id, id));
    if (campaignsEnabled !== undefined) {
      await tx
        .insert(settings)
        .values({ companyId: id, key: 'campaignsEnabled', value: String(campaignsEnabled) })
        .onConflictDoUpdate({ target: [settings.companyId, settings.key], set: { value: String(campaignsEnabled) } });
    }
  });
  forgetCallers(ctx.db, { company: id });
  // Deactivated or moved past its due date: its members' sessions end now, not when their tokens expire.
  if (input.status !== undefined || input.dueDate !== undefined) {
    await endSessions(ctx, sessionsWhere.membersOf(ctx.db, eq(companies.id, id), companyRefuses()));
  }
  return getCompany(ctx.db, ctx, id);
}

export async function deleteCompany(ctx: ServiceContext, id: number): Promise<void> {
  if (id === ctx.companyId) throw new AppError('ERR_CANNOT_DELETE_PLATFORM');
  await getCompany(ctx.db, ctx, id);
  await ctx.db.delete(companies).where(eq(companies.id, id));
  forgetCallers(ctx.db, { company: id });
  // Its users and sessions went with the row; its open sockets go now.
  ctx.realtime.disconnectCompany(id);
}

/** The company's weekly hours: its admins edit their own, the super user any company's. */
export async function updateCompanySchedules(ctx: ServiceContext, id: number, schedules: ScheduleEntry[]) {
  await getCompany(ctx.db, ctx, id);
  await ctx.db.update(companies).set({ schedules }).where(eq(companies.id, id));
  const company = await getCompany(ctx.db, ctx, id);
  ctx.realtime.toCompany(id, companyEvent.settings(id), { action: 'schedules', schedules: company.schedules });
  return company;
}
