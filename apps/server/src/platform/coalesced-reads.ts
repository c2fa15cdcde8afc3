type Waiting<T> = { group: number; id: number; resolve: (row: T | undefined) => void; reject: (e: unknown) => void };

/**
 * Rows by id asked for within one tick, read by one call of `readMany` per group (a company's):
 * concurrent work that wants rows at the same moment shares one statement. Nothing is kept
 * between ticks: every answer comes from a read issued after it was asked for.
 */
export function coalescedReads<T extends { id: number }>(
  readMany: (group: number, ids: number[]) => Promise<T[]>,
): (group: number, id: number) => Promise<T | undefined> {
  let waiting: Waiting<T>[] = [];
  const readWaiting = () => {
    const asked = waiting;
    waiting = [];
    const byGroup = new Map<number, Waiting<T>[]>();
    for (const w of asked) {
      const list = byGroup.get(w.group);
      if (list) list.push(w);
      else byGroup.set(w.group, [w]);
    }
    for (const [group, list] of byGroup) {
      Promise.resolve()
        .then(() => readMany(group, [...new Set(list.map((w) => w.id))]))
        .then(
          (rows) => {
            const byId = new Map(rows.map((r) => [r.id, r]));
            for (const w of list) w.resolve(byId.get(w.id));
          },
          (err) => {
            for (const w of list) w.reject(err);
          },
        );
    }
  };
  return (group, id) =>
    new Promise<T | undefined>((resolve, reject) => {
      if (waiting.length === 0) process.nextTick(readWaiting);
      waiting.push({ group, id, resolve, reject });
    });
}
