import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordPipelining } from '../../test/count-statements.js';
import { openTestDatabase, SUPER } from '../../test/harness.js';
import { companies } from '../modules/companies/companies.schema.js';
import type { Database } from './client.js';
import { queuedTransaction } from './queued-transaction.js';
import { ensurePlatform } from './seed.js';

let database: Database;
let planId: number;
beforeAll(async () => {
  database = await openTestDatabase();
  await ensurePlatform(database.db, SUPER);
  [{ planId }] = await database.db.select({ planId: companies.planId }).from(companies).limit(1);
});
afterAll(() => database.close());

const named = (name: string) => database.db.select().from(companies).where(eq(companies.name, name));

describe('queuedTransaction', () => {
  it('commits what the work wrote and answers with its result', async () => {
    const id = await queuedTransaction(database.db, async (tx) => {
      const [row] = await tx.insert(companies).values({ name: 'Fila Um', planId }).returning();
      return row.id;
    });
    expect((await named('Fila Um')).map((r) => r.id)).toEqual([id]);
  });

  it('writes nothing when the work fails after writing, and its connection serves the next one', async () => {
    await expect(
      queuedTransaction(database.db, async (tx) => {
        await tx.insert(companies).values({ name: 'Fila Dois', planId });
        await tx.insert(companies).values({ name: 'Fila Três', planId: -1 });
      }),
    ).rejects.toThrow();
    expect(await named('Fila Dois')).toEqual([]);
    const again = await queuedTransaction(database.db, async (tx) => tx.select().from(companies));
    expect(again.length).toBeGreaterThan(0);
  });

  it("sends the work's first statement before the BEGIN is answered", async ({ skip }) => {
    if (database.kind !== 'postgres') skip('PGlite has one connection: nothing to queue behind');
    const events = await recordPipelining(
      (text) => text.split(' ')[0],
      (kind) => (kind === 'begin' ? 'begun' : undefined),
      () => queuedTransaction(database.db, (tx) => tx.select().from(companies)),
    );
    expect(events).toEqual(['sent begin', 'sent select', 'begun', 'sent commit']);
  });
});
