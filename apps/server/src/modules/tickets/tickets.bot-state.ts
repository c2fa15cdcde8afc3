import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { arrayValue } from '../../db/insert-many.js';
import { executeShaped, QueryShape } from '../../db/query-shape.js';
import type { tickets } from './tickets.schema.js';

/** What the automations change of a ticket's bot state (DOMAIN §2). */
export type BotChange = Partial<
  Pick<typeof tickets.$inferInsert, 'queueId' | 'queueOptionId' | 'chatbot' | 'amountUsedBotQueues'>
>;

const botColumns = [
  ['queueId', 'queue_id', 'int'],
  ['queueOptionId', 'queue_option_id', 'int'],
  ['chatbot', 'chatbot', 'boolean'],
  ['amountUsedBotQueues', 'amount_used_bot_queues', 'int'],
] as const;

/**
 * Several tickets' bot changes as columns of an `unnest` named `c`: for each bot column, whether
 * the ticket's change sets it and to what. `arrays` and `names` go in `unnest(…) as c(…)`; `sets`
 * in the UPDATE of `tickets t … from c`, where a column a change leaves out keeps its value.
 */
export function botChangeColumns(
  changes: (BotChange | undefined)[],
  shape = QueryShape.inline(),
): { arrays: SQL; names: SQL; sets: SQL } {
  const arrays = botColumns.flatMap(([key, column, type]) => [
    arrayValue(
      shape,
      `set_${column}`,
      changes.map((c) => c?.[key] !== undefined),
      'boolean',
    ),
    arrayValue(
      shape,
      column,
      changes.map((c) => c?.[key] ?? null),
      type,
    ),
  ]);
  const names = botColumns.flatMap(([, column]) => [sql.identifier(`set_${column}`), sql.identifier(column)]);
  const sets = botColumns.map(([, column]) => {
    const name = sql.identifier(column);
    return sql`${name} = case when c.${sql.identifier(`set_${column}`)} then c.${name} else t.${name} end`;
  });
  return { arrays: sql.join(arrays, sql`, `), names: sql.join(names, sql`, `), sets: sql.join(sets, sql`, `) };
}

/** Writes the bot changes of several of the company's tickets (no ticket twice) in one statement. */
export async function updateBotStates(
  db: Db,
  companyId: number,
  rows: { ticketId: number; change: BotChange }[],
): Promise<void> {
  const shape = QueryShape.bound();
  const { arrays, names, sets } = botChangeColumns(
    rows.map((r) => r.change),
    shape,
  );
  const query = sql`update tickets t set ${sets}, updated_at = ${shape.value('now', new Date())}
    from unnest(${arrayValue(
      shape,
      'ids',
      rows.map((r) => r.ticketId),
      'int',
    )}, ${arrays}) as c(id, ${names})
    where t.id = c.id and t.company_id = ${shape.value('companyId', companyId)}`;
  await executeShaped('bot_states', db, shape, query);
}
