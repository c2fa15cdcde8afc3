/**
 * Chains tasks per key in this process: each starts after the previous one of its key ended
 * (whether it succeeded or not); keys with nothing queued are forgotten, so memory stays bounded.
 */
export function sequencer<K = string>() {
  const tails = new Map<K, Promise<unknown>>();
  return <T>(key: K, task: () => Promise<T>): Promise<T> => {
    const run = (tails.get(key) ?? Promise.resolve()).then(task);
    const tail = run.catch(() => undefined);
    tails.set(key, tail);
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return run;
  };
}
