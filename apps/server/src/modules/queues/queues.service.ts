import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { queues } from './queues.schema.js';

/** The company's queues in menu order; the queues module's editing calls come with the tickets issue. */
export function listQueues(db: Db, companyId: number) {
  return db
    .select({
      id: queues.id,
      name: queues.name,
      color: queues.color,
      greetingMessage: queues.greetingMessage,
      orderQueue: queues.orderQueue,
    })
    .from(queues)
    .where(eq(queues.companyId, companyId))
    .orderBy(asc(queues.orderQueue), asc(queues.id));
}
