import { type SQL, sql } from 'drizzle-orm';
import { companies } from '../../modules/companies/companies.schema.js';

/**
 * The due date is a calendar date compared with today's UTC date: a company may log in on its
 * due date and is refused from the next day (DOMAIN §11).
 */
export const todayUtc = (now = new Date()) => now.toISOString().slice(0, 10);

export const isOverdue = (dueDate: string | null, now = new Date()) => dueDate !== null && dueDate < todayUtc(now);

/** Whether the company's members may hold a session; super users always may. */
export const companyAdmits = (company: { status: boolean; dueDate: string | null }, isSuper: boolean) =>
  isSuper || (company.status && !isOverdue(company.dueDate));

/** SQL twin of `companyAdmits` for non-super users: the companies whose sessions must end. */
export const companyRefuses = (now = new Date()): SQL =>
  sql`(not ${companies.status} or ${companies.dueDate} < ${todayUtc(now)})`;
