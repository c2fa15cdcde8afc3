import { once } from 'node:events';
import type { createAdapter } from '@socket.io/redis-adapter';
import type { Redis, RedisOptions } from 'ioredis';
import type { Logger } from 'pino';

export interface RedisClients {
  /** Commands and publishing (rate limits, the Socket.IO adapter's pub side). */
  pub: Redis;
  /** Subscriber mode only (the Socket.IO adapter's sub side). */
  sub: Redis;
  /** The Socket.IO adapter over these clients; `key` prefixes its pub/sub channels. */
  adapter(key: string): ReturnType<typeof createAdapter>;
}

/**
 * A command client and its subscriber twin, both connected before anyone subscribes. The Socket.IO
 * adapter subscribes the moment it is attached; on a client still connecting, ioredis then sends its
 * ready check (INFO) after the SUBSCRIBE, Redis refuses it in subscriber mode and the subscription
 * is lost: the instances never hear each other. Waiting for `ready` removes that race.
 */
export async function connectRedis(url: string, log: Logger, options: RedisOptions = {}): Promise<RedisClients> {
  // Loaded only when REDIS_URL is set: a single instance does without them.
  const [{ Redis }, { createAdapter }] = await Promise.all([import('ioredis'), import('@socket.io/redis-adapter')]);
  const pub = new Redis(url, options);
  const sub = pub.duplicate();
  await Promise.all([ready(pub), ready(sub)]);
  // After boot ioredis reconnects by itself; an error is worth a line in the log, not a crash.
  for (const client of [pub, sub]) client.on('error', (err) => log.warn({ err }, 'redis'));
  return { pub, sub, adapter: (key) => createAdapter(pub, sub, { key }) };
}

async function ready(client: Redis): Promise<void> {
  if (client.status !== 'ready') await once(client, 'ready');
}
