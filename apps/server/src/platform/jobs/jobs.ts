import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { Database } from '../../db/client.js';

export type JobHandler<T> = (data: T) => Promise<void>;

/** Durable background work (pg-boss) on the product's own database. */
export interface Jobs {
  send<T extends object>(queue: string, data: T, options?: PgBoss.SendOptions): Promise<string | null>;
  work<T extends object>(queue: string, handler: JobHandler<T>): Promise<void>;
  schedule(queue: string, cron: string, handler: JobHandler<object>): Promise<void>;
  stop(): Promise<void>;
}

/**
 * pg-boss talks to PostgreSQL natively; on PGlite it goes through `executeSql`, which must use
 * `query` for parameterised statements and `exec` for its multi-statement migrations.
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

  const ensureQueue = async (queue: string) => {
    if (!(await boss.getQueue(queue))) await boss.createQueue(queue);
  };
  const wrap =
    <T>(handler: JobHandler<T>) =>
    async (jobs: PgBoss.Job<T>[]) => {
      for (const job of jobs) await handler(job.data);
    };

  return {
    async send(queue, data, options) {
      await ensureQueue(queue);
      return boss.send(queue, data, options ?? {});
    },
    async work(queue, handler) {
      await ensureQueue(queue);
      await boss.work(queue, wrap(handler));
    },
    async schedule(queue, cron, handler) {
      await ensureQueue(queue);
      await boss.schedule(queue, cron);
      await boss.work(queue, wrap(handler));
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
