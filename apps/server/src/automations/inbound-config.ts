import type { QueueOption, WeeklyScheduleEntry } from '@balcao/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { statement } from '../db/named-statement.js';
import { companies } from '../modules/companies/companies.schema.js';
import { queueOptions } from '../modules/queue-options/queue-options.schema.js';
import { optionTrees, type QueueOptionRow } from '../modules/queue-options/queue-options.service.js';
import { queues } from '../modules/queues/queues.schema.js';
import type { QueueRef } from '../modules/queues/queues.service.js';
import { settings } from '../modules/settings/settings.schema.js';
import { whatsappQueues, whatsapps } from '../modules/whatsapp/whatsapp.schema.js';

export type ConnectionRow = typeof whatsapps.$inferSelect;

export type QueueConfig = Pick<
  typeof queues.$inferSelect,
  'id' | 'greetingMessage' | 'outOfHoursMessage' | 'schedules' | 'promptId' | 'integrationId'
>;

/** What the inbound automations read of a company and one of its connections. */
export interface InboundConfig {
  /** The company's settings by key (a key never set is missing). */
  settings: Map<string, string>;
  /** Undefined when the connection is not the company's. */
  connection: ConnectionRow | undefined;
  /** The connection's queues, in menu order. */
  connectionQueues: QueueRef[];
  /** The company's queues by id. */
  companyQueues: Map<number, QueueConfig>;
  /** The company's weekly hours, undefined when the company is not found. */
  companySchedules: WeeklyScheduleEntry[] | undefined;
  /** The options trees of the connection's queues, by queue id. */
  options: Map<number, QueueOption[]>;
}

/**
 * All of it in one statement, each part a subquery of the company's row: a batch's automations
 * wait for one round trip instead of five or six. The connection is joined on the company, so
 * another company's connection, its queues and their options are simply not found.
 */
const configOf = statement('inbound_config', ['companyId', 'whatsappId'], (db, p) =>
  db
    .select({
      companySchedules: companies.schedules,
      connection: whatsapps,
      settings: sql<Record<string, string> | null>`(select json_object_agg(${settings.key}, ${settings.value})
        from ${settings} where ${settings.companyId} = ${companies.id})`,
      companyQueues: sql<QueueConfig[] | null>`(select json_agg(json_build_object('id', ${queues.id},
        'greetingMessage', ${queues.greetingMessage}, 'outOfHoursMessage', ${queues.outOfHoursMessage},
        'schedules', ${queues.schedules}, 'promptId', ${queues.promptId}, 'integrationId', ${queues.integrationId}))
        from ${queues} where ${queues.companyId} = ${companies.id})`,
      connectionQueues: sql<QueueRef[] | null>`(select json_agg(json_build_object('id', ${queues.id},
        'name', ${queues.name}, 'color', ${queues.color}) order by ${queues.orderQueue}, ${queues.id})
        from ${whatsappQueues} join ${queues} on ${queues.id} = ${whatsappQueues.queueId}
        where ${whatsappQueues.whatsappId} = ${whatsapps.id})`,
      options: sql<QueueOptionRow[] | null>`(select json_agg(json_build_object('id', ${queueOptions.id},
        'queueId', ${queueOptions.queueId}, 'parentId', ${queueOptions.parentId}, 'title', ${queueOptions.title},
        'message', ${queueOptions.message}, 'option', ${queueOptions.option}) order by ${queueOptions.queueId}, ${queueOptions.option})
        from ${queueOptions} join ${whatsappQueues} on ${whatsappQueues.queueId} = ${queueOptions.queueId}
        where ${whatsappQueues.whatsappId} = ${whatsapps.id})`,
    })
    .from(companies)
    .leftJoin(whatsapps, and(eq(whatsapps.id, p.whatsappId), eq(whatsapps.companyId, companies.id)))
    .where(eq(companies.id, p.companyId)),
);

export async function readInboundConfig(db: Db, companyId: number, whatsappId: number): Promise<InboundConfig> {
  const [row] = await configOf(db, { companyId, whatsappId });
  const connectionQueues = row?.connectionQueues ?? [];
  return {
    settings: new Map(Object.entries(row?.settings ?? {})),
    connection: row?.connection ?? undefined,
    connectionQueues,
    companyQueues: new Map((row?.companyQueues ?? []).map((q) => [q.id, q])),
    companySchedules: row ? (row.companySchedules ?? []) : undefined,
    options: optionTrees(
      connectionQueues.map((q) => q.id),
      row?.options ?? [],
    ),
  };
}
