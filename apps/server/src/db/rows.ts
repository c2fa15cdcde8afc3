/** The rows of `db.execute(sql…)`: node-postgres answers `{rows}`, PGlite's driver the array itself. */
export const rowsOf = <T>(result: unknown): T[] => (Array.isArray(result) ? result : (result as { rows: T[] }).rows);
