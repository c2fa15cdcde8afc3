import type { Jobs } from '../jobs/jobs.js';

/**
 * The app's jobs while pg-boss starts and the workers register, which the server does not wait for to
 * listen: every call waits until `open` hands over the started pg-boss. A job sent meanwhile is stored
 * then, never dropped, and after the workers' queues exist, as before (pg-boss deadlocks when it
 * creates queues concurrently).
 */
export function deferredJobs(): { jobs: Jobs; open(started: Jobs): void } {
  let open: (started: Jobs) => void = () => {};
  const ready = new Promise<Jobs>((resolve) => {
    open = resolve;
  });
  return {
    jobs: {
      send: async (queue, data, options) => (await ready).send(queue, data, options),
      work: async (queue, handler, options) => (await ready).work(queue, handler, options),
      schedule: async (queue, cron, handler) => (await ready).schedule(queue, cron, handler),
      stop: async () => (await ready).stop(),
    },
    open,
  };
}
