/** p50/p95 of a list of durations in milliseconds. */
export function percentiles(samples: number[]): { p50: number; p95: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { p50: at(0.5), p95: at(0.95) };
}

/**
 * Times n calls, after a tenth as many unrecorded: the first calls compile the code path (JIT) and
 * prepare statements on each pooled connection, which would otherwise be the p95 of a short run.
 */
export async function timeEach(n: number, fn: (i: number) => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < Math.ceil(n / 10); i++) await fn(i);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn(i);
    out.push(performance.now() - t);
  }
  return out;
}

export function line(name: string, samples: number[], baseline?: number[]): string {
  const s = percentiles(samples);
  const b = baseline ? percentiles(baseline) : undefined;
  const base = b ? `   (baseline raw SQL p50 ${b.p50.toFixed(2)} ms, p95 ${b.p95.toFixed(2)} ms)` : '';
  return `${name.padEnd(34)} p50 ${s.p50.toFixed(2).padStart(7)} ms  p95 ${s.p95.toFixed(2).padStart(7)} ms${base}`;
}
