import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestServer, type TestServer } from './harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(() => server.close());

describe('GET /health', () => {
  it('answers ok without a token', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('answers 503 when the database does not respond', async () => {
    const spy = vi.spyOn(server.deps.database.db, 'execute').mockRejectedValueOnce(new Error('connection refused'));
    try {
      const res = await server.app.inject({ method: 'GET', url: '/health' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ status: 'error' });
      expect(res.body).not.toContain('connection refused');
    } finally {
      spy.mockRestore();
    }
    expect((await server.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
  });
});

describe('API documentation', () => {
  it('/api-docs/json lists the routes', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api-docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info).toMatchObject({ title: 'Balcão API' });
    const paths = Object.keys(doc.paths);
    expect(paths).toEqual(expect.arrayContaining(['/auth/login', '/users', '/users/{id}', '/plans/list', '/settings']));
    expect(Object.keys(doc.paths['/auth/login'])).toContain('post');
    expect(Object.keys(doc.paths['/users'])).toEqual(expect.arrayContaining(['get', 'post']));
    // Internal probes stay out of the documentation.
    expect(paths).not.toContain('/health');
  });

  it('/api-docs serves the UI', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api-docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
  });
});

describe('unknown routes', () => {
  it('answer 404 ERR_NOT_FOUND in the error format', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/no-such-route' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'ERR_NOT_FOUND', message: 'Route not found' });
  });
});
