import Fastify, { type FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import { OneLineRequestLog } from './request-log.js';

describe('OneLineRequestLog', () => {
  it('logs one line per request, without the query string, and the health probe only at debug', async () => {
    const lines: Record<string, unknown>[] = [];
    const log = createLogger(
      { level: 'info', pretty: false },
      { write: (line: string) => lines.push(JSON.parse(line)) },
    );
    const app = Fastify({ loggerInstance: log as FastifyBaseLogger, logController: new OneLineRequestLog() });
    app.get('/tickets', async () => ({ ok: true }));
    app.get('/health', async () => ({ status: 'ok' }));
    await app.inject({ method: 'GET', url: '/tickets?searchParam=maria' });
    await app.inject({ method: 'GET', url: '/health' });
    await app.close();
    const messages = lines.map((l) => l.msg as string);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/^GET \/tickets 200 \d+ms$/);
  });
});
