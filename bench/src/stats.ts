import { readdirSync, readFileSync } from 'node:fs';

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

/**
 * Times n calls of `measured` and of `baseline`, alternating one of each (after a tenth as many
 * unrecorded): both series see the machine in the same state, whose speed here drifts by 2× within
 * minutes, so a ratio of their percentiles compares the code, not the minute each ran in.
 */
export async function timePaired(
  n: number,
  measured: (i: number) => Promise<unknown>,
  baseline: (i: number) => Promise<unknown>,
): Promise<[number[], number[]]> {
  const out: [number[], number[]] = [[], []];
  for (let i = 0; i < Math.ceil(n / 10); i++) {
    await measured(i);
    await baseline(i);
  }
  for (let i = 0; i < n; i++) {
    for (const [k, fn] of [measured, baseline].entries()) {
      const t = performance.now();
      await fn(i);
      out[k].push(performance.now() - t);
    }
  }
  return out;
}

export function line(name: string, samples: number[], baseline?: number[]): string {
  const s = percentiles(samples);
  const b = baseline ? percentiles(baseline) : undefined;
  const base = b ? `   (baseline raw SQL p50 ${b.p50.toFixed(2)} ms, p95 ${b.p95.toFixed(2)} ms)` : '';
  return `${name.padEnd(34)} p50 ${s.p50.toFixed(2).padStart(7)} ms  p95 ${s.p95.toFixed(2).padStart(7)} ms${base}`;
}

/**
 * CPU time of the PostgreSQL server processes on this host and of the whole machine, in ms, read
 * from /proc (Linux only; zeros elsewhere or when the database runs on another host). Subtracting
 * two readings tells how much of a run's CPU the database took and how busy the machine was.
 */
export function hostCpu(): { postgres: number; busy: number; idle: number } {
  const tick = 1000 / 100;
  let postgres = 0;
  try {
    for (const pid of readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      let stat: string;
      try {
        stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      } catch {
        continue;
      }
      const close = stat.lastIndexOf(')');
      if (stat.slice(stat.indexOf('(') + 1, close) !== 'postgres') continue;
      const fields = stat.slice(close + 2).split(' ');
      postgres += (Number(fields[11]) + Number(fields[12])) * tick;
    }
    const [, ...times] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
    const idle = (times[3] + times[4]) * tick;
    const busy = times.slice(0, 8).reduce((a, b) => a + b, 0) * tick - idle;
    return { postgres, busy, idle };
  } catch {
    return { postgres: 0, busy: 0, idle: 0 };
  }
}
