import { sql } from 'drizzle-orm';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/harness.js';
import type { Database } from '../db/client.js';
import { registerErrorHandler } from './errors/error-handler.js';
import { createLogger } from './logger.js';

const HASH = '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA';

let database: Database;

/** A logger whose lines the test reads. */
function captured() {
  const lines: string[] = [];
  const log = createLogger({ level: 'info', pretty: false }, { write: (line: string) => lines.push(line) });
  return { log, text: () => lines.join('') };
}

/** The error of a query that fails with the hash among its parameters. */
async function failedQuery(): Promise<Error> {
  return database.db.execute(sql`select ${HASH}::int`).then(
    () => {
      throw new Error('the query should fail');
    },
    (err: Error) => err,
  );
}

beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

describe('the logger', () => {
  it('logs a failed query with its SQL but without its parameters, however the error is passed', async () => {
    const err = await failedQuery();
    expect(`${err.message} ${(err.cause as Error)?.message}`).toContain(HASH);
    const { log, text } = captured();
    log.error({ err }, 'query failed');
    log.error(err);
    log.error({ err });
    log.error({ err }, err.message);
    log.warn({ nested: { err } }, 'nested');
    expect(text()).not.toContain(HASH);
    expect(text()).not.toContain('c2FsdHNhbHQ');
    expect(text()).toContain('Failed query: select $1::int');
    expect(text()).toContain('DrizzleQueryError');
  });

  it('replaces passwords, hashes, tokens, secrets, cookies and authorization headers at any depth', () => {
    const { log, text } = captured();
    log.info(
      {
        password: 'pw-secret-1',
        user: { name: 'Ana', passwordHash: HASH },
        headers: { authorization: 'Bearer tok-secret-2', cookie: 'jrt=cookie-secret-3' },
        sessions: [{ refreshToken: 'tok-secret-4' }],
        providerConfig: { appSecret: 'app-secret-5' },
      },
      'a line',
    );
    const line = text();
    for (const secret of ['pw-secret-1', HASH, 'tok-secret-2', 'cookie-secret-3', 'tok-secret-4', 'app-secret-5'])
      expect(line).not.toContain(secret);
    expect(JSON.parse(line)).toMatchObject({ user: { name: 'Ana', passwordHash: '[redacted]' }, msg: 'a line' });
  });

  it('through HTTP: a failing query is answered without a 500 where it is the value, and logged without it', async () => {
    const { log, text } = captured();
    const app = Fastify({ loggerInstance: log as FastifyBaseLogger });
    registerErrorHandler(app);
    app.get('/bad-value', () => database.db.execute(sql`select ${HASH}::int`));
    app.get('/bad-query', () => database.db.execute(sql`select length(${HASH}) / 0`));
    const badValue = await app.inject({ method: 'GET', url: '/bad-value?hub.verify_token=verify-secret-6' });
    expect(badValue.statusCode).toBe(400);
    expect(badValue.json()).toMatchObject({ error: 'ERR_VALIDATION' });
    const badQuery = await app.inject({ method: 'GET', url: '/bad-query' });
    expect(badQuery.statusCode).toBe(500);
    await app.close();
    expect(text()).toContain('unhandled error');
    expect(text()).toContain('value refused by the database');
    expect(text()).not.toContain(HASH);
    expect(text()).not.toContain('verify-secret-6');
  });
});
