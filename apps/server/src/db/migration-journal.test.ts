import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const dir = new URL('./migrations/', import.meta.url);
const journal = JSON.parse(readFileSync(new URL('meta/_journal.json', dir), 'utf8')) as {
  entries: { idx: number; when: number; tag: string }[];
};

/**
 * Drizzle's migrator applies a migration only when its `when` is later than the last one applied:
 * an entry dated before its predecessor (a hand-written one, or one generated on a machine whose
 * clock is behind) would silently never run on a database that already has the predecessor.
 */
describe('migration journal', () => {
  it('numbers the entries in order, each later than the one before and none in the future', () => {
    const { entries } = journal;
    entries.forEach((entry, i) => {
      expect(entry.idx).toBe(i);
      expect(entry.tag.startsWith(String(i).padStart(4, '0'))).toBe(true);
      if (i > 0) expect(entry.when).toBeGreaterThan(entries[i - 1].when);
    });
    expect(entries.at(-1)?.when).toBeLessThanOrEqual(Date.now());
  });

  it('has one SQL file and one snapshot per entry', () => {
    const sql = readdirSync(dir).filter((f) => f.endsWith('.sql'));
    expect(sql.sort()).toEqual(journal.entries.map((e) => `${e.tag}.sql`).sort());
    const snapshots = readdirSync(new URL('meta/', dir)).filter((f) => f.endsWith('_snapshot.json'));
    expect(snapshots).toHaveLength(journal.entries.length);
  });
});
