import { is } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import * as schema from './schema.js';

/**
 * `ORDER BY x DESC` is NULLS FIRST in PostgreSQL; an index column built `DESC NULLS LAST` (Drizzle's
 * default for `.desc()`) cannot serve it, and the list sorts every matching row instead of reading
 * one page. Every descending index column must say `.desc().nullsFirst()`.
 */
describe('index column order', () => {
  it('every descending index column is NULLS FIRST, the order the queries ask for', () => {
    const wrong: string[] = [];
    let descending = 0;
    for (const table of Object.values(schema)) {
      if (!is(table, PgTable)) continue;
      for (const index of getTableConfig(table).indexes) {
        for (const column of index.config.columns) {
          const config = (column as { indexConfig?: { order?: string; nulls?: string } }).indexConfig;
          if (config?.order !== 'desc') continue;
          descending += 1;
          if (config.nulls !== 'first') wrong.push(index.config.name ?? '?');
        }
      }
    }
    expect(descending).toBeGreaterThan(5);
    expect(wrong).toEqual([]);
  });
});
