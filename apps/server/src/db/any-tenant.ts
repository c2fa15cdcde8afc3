import { type SQL, sql } from 'drizzle-orm';

/**
 * A company's or a connection's id as a value the planner does not see: `(select $n::int)`, an
 * InitPlan parameter, estimated as an average company's share of the table rather than from this
 * one's statistics.
 *
 * A lookup by many keys behind a company's columns (`company_id = $1 and number = any($2)`, on an
 * index of `company_id, number`) is planned from the company's row count in the statistics. For a
 * company or connection that grew since the table's last ANALYZE — which on a large table comes
 * only after a tenth of its rows changed — they say a few rows, and PostgreSQL 15 then probes the
 * index on the company alone and filters the keys: each lookup reads all of the company's rows,
 * more on every call. Estimated as any company, the keys are index conditions. (A table analyzed
 * while empty has no statistics to average: the planner's defaults then choose the same filter, for
 * the minute autovacuum takes to analyze a table after its first 50 changes.)
 */
export const anyTenant = (id: unknown): SQL => sql`(select ${id}::int)`;
