interface Waiting<T, R> {
  item: T;
  resolve: (r: R) => void;
  reject: (err: unknown) => void;
}

/**
 * Runs the items of each key one batch at a time, in arrival order. There is no timer: items that
 * arrive while a batch runs form the next one, so a quiet key stores each item at once and a busy
 * one amortises its round trips over up to `maxBatch` items. A failed batch is retried item by
 * item, so that one bad item fails alone. Keys with nothing waiting hold no memory.
 */
export function createBatcher<T, R>(run: (items: T[]) => Promise<R[]>, maxBatch: number) {
  const queues = new Map<string, Waiting<T, R>[]>();

  async function settle(batch: Waiting<T, R>[]) {
    try {
      const results = await run(batch.map((w) => w.item));
      batch.forEach((w, i) => {
        w.resolve(results[i]);
      });
    } catch (err) {
      if (batch.length === 1) return batch[0].reject(err);
      for (const w of batch) await settle([w]);
    }
  }

  async function drain(key: string, queue: Waiting<T, R>[]) {
    // Let the callers of this tick join the first batch.
    await Promise.resolve();
    while (queue.length) await settle(queue.splice(0, maxBatch));
    queues.delete(key);
  }

  return {
    push(key: string, item: T): Promise<R> {
      return new Promise<R>((resolve, reject) => {
        const queue = queues.get(key);
        if (queue) return void queue.push({ item, resolve, reject });
        const started = [{ item, resolve, reject }];
        queues.set(key, started);
        void drain(key, started);
      });
    },
  };
}
