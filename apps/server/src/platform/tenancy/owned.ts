import type { ErrorCode } from '@balcao/shared';
import { and, eq, inArray } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import { AppError } from '../errors/app-error.js';

/** A tenant-owned table: every row carries its company. */
export type OwnedTable = PgTable & { id: PgColumn; companyId: PgColumn };

/**
 * Every id names a row of `table` in the company. An id of another company's row is simply not
 * found (`code`): a body can never link a record to someone else's, nor learn that the id exists.
 * Null and undefined mean "no reference". Each module calls it on its own table only.
 */
export async function assertOwned(
  db: Db,
  table: OwnedTable,
  companyId: number,
  ids: readonly (number | null | undefined)[],
  code: ErrorCode,
): Promise<void> {
  const wanted = [...new Set(ids.filter((id): id is number => typeof id === 'number'))];
  if (wanted.length === 0) return;
  const found = await db
    .select({ id: table.id })
    .from(table as PgTable)
    .where(and(eq(table.companyId, companyId), inArray(table.id, wanted)));
  if (found.length !== wanted.length) throw new AppError(code);
}
