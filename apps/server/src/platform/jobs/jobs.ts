import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { Database } from '../../db/client.js';

export interface JobAttempt {
  retryCount: number;
  retryLimit: number;
}
export type JobHandler<T> = (data: T, attempt?: JobAttempt) => Promise<void>;

/** Durable background work (pg-boss) on the product's own database. */
export interface Jobs {
  send<T extends object>(queue: string, data: T, options?: PgBoss.SendOptions): Promise<string | null>;
  /**
   * `policy: 'short'` keeps at most one job of a `singletonKey` waiting (pg-boss queue policy): a
   * send while one waits is a no-op that returns null. `concurrency` runs that many of the queue's
   * jobs at once on this instance (slow outside calls, such as the AI's, must not queue up behind
   * each other); one by default.
   */
  work<T extends object>(
    queue: string,
    handler: JobHandler<T>,
    options?: { policy?: 'short'; concurrency?: number },
  ): Promise<void>;
  schedule(queue: string, cron: string, handler: JobHandler<object>): Promise<void>;
  stop(): Promise<void>;
}

/**
 * pg-boss talks to PostgreSQL natively; on PGlite it goes through `executeSql`, which must use
 * `query` for parameterised statements and `exec` for its multi-statement migrations.
 * A job sent by this instance to a queue it works is picked up at once instead of waiting for
 * the next poll; the poll still serves retries and jobs sent by other instances.
 */
export async function startJobs(database: Database, log: Logger, connectionString?: string): Promise<Jobs> {
  const boss =
    database.kind === 'postgres' && connectionString
      ? new PgBoss({ connectionString, max: 5 })
      : new PgBoss({
          db: {
            executeSql: (text: string, values?: unknown[]) =>
              values?.length ? database.query(text, values) : database.exec(text),
          },
        });
  boss.on('error', (err) => log.error({ err }, 'jobs error'));
  await boss.start();

  const handlers = new Map<string, JobHandler<object>>();
  const concurrency = new Map<string, number>();
  const draining = new Set<string>();
  const known = new Set<string>();

  const ensureQueue = async (queue: string, policy?: 'short') => {
    if (known.has(queue)) return;
    if (!(await boss.getQueue(queue))) await boss.createQueue(queue, policy ? { name: queue, policy } : undefined);
    known.add(queue);
  };
  const run = async (queue: string, job: PgBoss.JobWithMetadata<object>) => {
    const handler = handlers.get(queue) as JobHandler<object>;
    await handler(job.data, { retryCount: job.retryCount, retryLimit: job.retryLimit });
  };
  const settle = async (queue: string, job: PgBoss.JobWithMetadata<object>) => {
    try {
      await run(queue, job);
      await boss.complete(queue, job.id);
    } catch (err) {
      await boss.fail(queue, job.id, { message: err instanceof Error ? err.message : String(err) });
    }
  };
  const drain = async (queue: string) => {
    if (draining.has(queue)) return;
    draining.add(queue);
    try {
      const parallel = concurrency.get(queue) ?? 1;
      for (;;) {
        const batch = await boss.fetch<object>(queue, {
          batchSize: parallel > 1 ? parallel : 10,
          includeMetadata: true,
        });
        if (!batch?.length) break;
        if (parallel > 1) await Promise.all(batch.map((job) => settle(queue, job)));
        else for (const job of batch) await settle(queue, job);
      }
    } catch (err) {
      log.error({ err, queue }, 'job drain failed');
    } finally {
      draining.delete(queue);
    }
  };
  const poll = async (queue: string, workers = 1) => {
    for (let i = 0; i < workers; i++) {
      await boss.work<object>(queue, { pollingIntervalSeconds: 2, includeMetadata: true }, async (jobs) => {
        for (const job of jobs) await run(queue, job);
      });
    }
  };

  return {
    async send(queue, data, options) {
      await ensureQueue(queue);
      const id = await boss.send(queue, data, options ?? {});
      if (handlers.has(queue)) setImmediate(() => void drain(queue));
      return id;
    },
    async work(queue, handler, options) {
      await ensureQueue(queue, options?.policy);
      handlers.set(queue, handler as JobHandler<object>);
      if (options?.concurrency) concurrency.set(queue, options.concurrency);
      await poll(queue, options?.concurrency);
    },
    async schedule(queue, cron, handler) {
      await ensureQueue(queue);
      handlers.set(queue, handler);
      await boss.schedule(queue, cron);
      await poll(queue);
    },
    stop: () => boss.stop({ graceful: true, wait: true }),
  };
}

/** For code paths that run before jobs start or in tests that do not need them. */
export const noJobs: Jobs = {
  send: async () => null,
  work: async () => {},
  schedule: async () => {},
  stop: async () => {},
};
