import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { baileysAuth } from './baileys.schema.js';
import { BoundedCache } from './bounded-cache.js';

/** Kept beside the session (and wiped with it): `number` → the jid that number answers on. */
const TYPE = 'reply-jid';

/**
 * Where to send to a number the pipeline knows only as digits: a contact WhatsApp showed us by
 * its LID alone has no phone jid, so the jid it wrote from is remembered, past restarts too.
 */
export function replyJids(db: Db, whatsappId: number) {
  const cache = new BoundedCache<string>(5_000, 86_400_000);
  return {
    async remember(number: string, jid: string) {
      if (cache.get(number) === jid) return;
      cache.set(number, jid);
      await db
        .insert(baileysAuth)
        .values({ whatsappId, type: TYPE, keyId: number, value: jid })
        .onConflictDoUpdate({
          target: [baileysAuth.whatsappId, baileysAuth.type, baileysAuth.keyId],
          set: { value: sql`excluded.value`, updatedAt: sql`now()` },
        });
    },
    async lookup(number: string): Promise<string | undefined> {
      const cached = cache.get(number);
      if (cached) return cached;
      const [row] = await db
        .select({ value: baileysAuth.value })
        .from(baileysAuth)
        .where(and(eq(baileysAuth.whatsappId, whatsappId), eq(baileysAuth.type, TYPE), eq(baileysAuth.keyId, number)));
      if (row) cache.set(number, row.value);
      return row?.value;
    },
  };
}
