import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';

/** The pg-boss queue of schedule sends: one job per schedule (DOMAIN §7). */
export const SCHEDULE_QUEUE = 'schedules.send';
export const SCHEDULE_SWEEP_QUEUE = 'schedules.sweep';
export const singletonOf = (id: number) => `schedule:${id}`;

/** pg-boss's tables exist once its first instance started; without jobs (some tests) the sweeper is the only sender. */
async function bossReady(tx: Db): Promise<boolean> {
  const rows = (await tx.execute(sql`select to_regclass('pgboss.queue') is not null as ok`)) as unknown as
    | { rows: { ok: boolean }[] }
    | { ok: boolean }[];
  const list = Array.isArray(rows) ? rows : rows.rows;
  return list[0]?.ok === true;
}

/**
 * Cancels the schedule's live job and writes its new one, on `tx`: the row and its job commit or
 * roll back together (pg-boss's own `send` would use another connection).
 */
export async function replaceScheduleJob(tx: Db, id: number, startAfter: Date | null): Promise<void> {
  if (!(await bossReady(tx))) return;
  await tx.execute(sql`update pgboss.job set state = 'cancelled', completed_on = now()
    where name = ${SCHEDULE_QUEUE} and singleton_key = ${singletonOf(id)} and state < 'completed'`);
  if (!startAfter) return;
  const at = startAfter.toISOString();
  await tx.execute(sql`insert into pgboss.job (name, data, start_after, singleton_key, retry_limit, keep_until, policy)
    select ${SCHEDULE_QUEUE}, ${JSON.stringify({ scheduleId: id })}::jsonb, ${at}::timestamptz, ${singletonOf(id)}, 0,
      ${at}::timestamptz + interval '14 days', q.policy
    from pgboss.queue q where q.name = ${SCHEDULE_QUEUE}`);
}
