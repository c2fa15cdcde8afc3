import type { TicketsListQuery } from '@balcao/shared';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client.js';
import * as schema from '../../db/schema.js';
import type { TicketAccess } from './tickets.access.js';
import { ticketListFilter } from './tickets.service.js';
import { ticketsPageQuery } from './tickets.view.js';

/**
 * `GET /tickets` builds its page once per shape of its filters (db/query-shape.ts). That is safe only
 * if the shape's key alone decides the statement's text and every value of the request travels as a
 * placeholder: a value left inline would be served to the next caller of the same shape. Over every
 * combination of caller and filters, two requests with different values (company, user, queues,
 * tags, users, days, search term) must build the same text with the same inline parameters.
 */
const pool = new pg.Pool({ max: 1 });
// Texts only: nothing here connects.
const db = drizzle(pool, { schema }) as unknown as Db;
afterAll(() => pool.end());

/** Two worlds with the same structure and different values. */
const world = (n: 0 | 1) => {
  const id = (base: number) => base + n * 100;
  const callers: TicketAccess[] = [
    { admin: true, userId: id(1), queueIds: [], seesNoQueue: true },
    { admin: false, userId: id(2), queueIds: [id(10), id(11)], seesNoQueue: false },
    { admin: false, userId: id(3), queueIds: [], seesNoQueue: false },
    { admin: false, userId: id(4), queueIds: [id(10)], seesNoQueue: true },
  ];
  const queueIds = [undefined, [], [id(10)], [id(10), id(12)]];
  const extras: Partial<TicketsListQuery>[] = [
    {},
    { tags: [id(20), id(21)] },
    { users: [id(30)] },
    { withUnreadMessages: true },
    { date: n ? '2026-11-30' : '2026-12-01' },
    { updatedAt: n ? '2026-10-01' : '2026-10-02' },
    { searchParam: n ? 'pedido 4471' : 'maria' },
    {
      tags: [id(20)],
      users: [id(30), id(31)],
      withUnreadMessages: true,
      date: n ? '2026-11-30' : '2026-12-01',
      updatedAt: n ? '2026-10-01' : '2026-10-02',
      searchParam: n ? 'pedido' : 'joão',
    },
  ];
  return { companyId: id(5), callers, queueIds, extras, pageNumber: n + 2 };
};

const statuses = [undefined, 'open', 'pending', 'closed'] as const;

function build(n: 0 | 1, c: number, qi: number, status: (typeof statuses)[number], showAll: boolean, e: number) {
  const w = world(n);
  const q = {
    searchParam: '',
    pageNumber: w.pageNumber,
    status,
    showAll,
    queueIds: w.queueIds[qi],
    ...w.extras[e],
  } as TicketsListQuery;
  const filter = ticketListFilter(db, { companyId: w.companyId }, w.callers[c], q);
  const page = { limit: 21, offset: filter.shape.unseen('offset', (w.pageNumber - 1) * 20, 'int') };
  const { sql, params } = ticketsPageQuery(db, filter, page).toSQL();
  return { key: filter.shape.key, sql, params, values: filter.shape.values };
}

describe('the tickets list built once per shape', () => {
  it('one key, one text, and no value of the request inline, over every combination', () => {
    const texts = new Map<string, string>();
    let combinations = 0;
    for (let c = 0; c < 4; c++)
      for (let qi = 0; qi < 4; qi++)
        for (const status of statuses)
          for (const showAll of [false, true])
            for (let e = 0; e < 8; e++) {
              const a = build(0, c, qi, status, showAll, e);
              const b = build(1, c, qi, status, showAll, e);
              expect(b.key).toBe(a.key);
              expect(b.sql).toBe(a.sql);
              expect(b.params).toEqual(a.params);
              expect(b.values.companyId).not.toBe(a.values.companyId);
              expect(b.values.offset).not.toBe(a.values.offset);
              expect(texts.get(a.key) ?? a.sql).toBe(a.sql);
              texts.set(a.key, a.sql);
              combinations += 1;
            }
    expect(combinations).toBe(1024);
    expect(texts.size).toBeGreaterThan(100);
  });
});
