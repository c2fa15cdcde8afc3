import { STORAGE } from '@balcao/shared';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionReply } from '../test/fixtures';
import { ApiError, createHttpClient } from './http';

const BASE = 'http://api.test';

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

type Handler = (path: string, init: RequestInit) => Response | Promise<Response>;

function setup(handler: Handler) {
  const fetch = vi.fn((input: RequestInfo | URL, init?: RequestInit) =>
    Promise.resolve(handler(String(input).slice(BASE.length), init ?? {})),
  );
  const client = createHttpClient({ baseUrl: () => BASE, fetch: fetch as typeof globalThis.fetch });
  const loggedOut = vi.fn();
  client.onLoggedOut(loggedOut);
  const calls = (path: string) => fetch.mock.calls.filter(([input]) => String(input) === BASE + path);
  return { client, fetch, loggedOut, calls };
}

function authHeader(init: RequestInit | undefined): string | undefined {
  return (init?.headers as Record<string, string> | undefined)?.Authorization;
}

describe('http client', () => {
  beforeEach(() => {
    localStorage.setItem(STORAGE.token, 'old-token');
    localStorage.setItem(STORAGE.companyId, '1');
    localStorage.setItem(STORAGE.userId, '7');
  });

  it('sends the bearer token and cookies, and parses JSON', async () => {
    const { client, fetch } = setup(() => json(200, { ok: 1 }));
    await expect(client.get('/users', { searchParam: 'ana', pageNumber: 1 })).resolves.toEqual({ ok: 1 });
    const [input, init] = fetch.mock.calls[0];
    expect(String(input)).toBe(`${BASE}/users?searchParam=ana&pageNumber=1`);
    expect(init?.credentials).toBe('include');
    expect(authHeader(init)).toBe('Bearer old-token');
  });

  it('on 403 refreshes once, stores the new token and retries the request with it', async () => {
    const { client, calls, loggedOut } = setup((path, init) => {
      if (path === '/auth/refresh_token') return json(200, sessionReply({ token: 'new-token' }));
      return authHeader(init) === 'Bearer new-token'
        ? json(200, [{ id: 1 }])
        : json(403, { error: 'ERR_INVALID_TOKEN' });
    });
    const refreshed = vi.fn();
    client.onSessionRefreshed(refreshed);

    await expect(client.get('/queue')).resolves.toEqual([{ id: 1 }]);
    expect(calls('/auth/refresh_token')).toHaveLength(1);
    expect(calls('/queue')).toHaveLength(2);
    expect(localStorage.getItem(STORAGE.token)).toBe('new-token');
    expect(refreshed).toHaveBeenCalledTimes(1);
    expect(loggedOut).not.toHaveBeenCalled();
  });

  it('on 403 with a failing refresh clears the session and reports logged out', async () => {
    const { client, calls, loggedOut } = setup((path) =>
      path === '/auth/refresh_token'
        ? json(401, { error: 'ERR_SESSION_EXPIRED' })
        : json(403, { error: 'ERR_INVALID_TOKEN' }),
    );

    const error = await client.get('/settings').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('ERR_INVALID_TOKEN');
    expect(calls('/settings')).toHaveLength(1);
    expect(loggedOut).toHaveBeenCalledTimes(1);
    expect(localStorage.getItem(STORAGE.token)).toBeNull();
    expect(localStorage.getItem(STORAGE.companyId)).toBeNull();
    expect(localStorage.getItem(STORAGE.userId)).toBeNull();
    expect(localStorage.getItem(STORAGE.loggedIn)).toBe('false');
  });

  it('a 403 that names a rule is not retried and does not end the session', async () => {
    const { client, calls, loggedOut } = setup(() => json(403, { error: 'ERR_PLAN_LIMIT_USERS', message: 'limit' }));
    await expect(client.post('/users', { name: 'x' })).rejects.toMatchObject({
      status: 403,
      code: 'ERR_PLAN_LIMIT_USERS',
    });
    expect(calls('/users')).toHaveLength(1);
    expect(calls('/auth/refresh_token')).toHaveLength(0);
    expect(loggedOut).not.toHaveBeenCalled();
  });

  it('on 401 logs out without trying to refresh', async () => {
    const { client, calls, loggedOut } = setup(() => json(401, { error: 'ERR_SESSION_EXPIRED', message: 'expired' }));

    await expect(client.get('/auth/me')).rejects.toMatchObject({ status: 401, code: 'ERR_SESSION_EXPIRED' });
    expect(calls('/auth/refresh_token')).toHaveLength(0);
    expect(loggedOut).toHaveBeenCalledTimes(1);
    expect(localStorage.getItem(STORAGE.token)).toBeNull();
  });

  it('concurrent 403 replies share one refresh', async () => {
    let releaseRefresh: () => void = () => {};
    const refreshGate = new Promise<void>((resolve) => {
      releaseRefresh = resolve;
    });
    const { client, calls } = setup(async (path, init) => {
      if (path === '/auth/refresh_token') {
        await refreshGate;
        return json(200, sessionReply({ token: 'new-token' }));
      }
      return authHeader(init) === 'Bearer new-token' ? json(200, { path }) : json(403, { error: 'ERR_INVALID_TOKEN' });
    });

    const first = client.get('/users');
    const second = client.get('/queue');
    await vi.waitFor(() => expect(calls('/auth/refresh_token')).toHaveLength(1));
    releaseRefresh();

    await expect(Promise.all([first, second])).resolves.toEqual([{ path: '/users' }, { path: '/queue' }]);
    expect(calls('/auth/refresh_token')).toHaveLength(1);
  });

  it('does not apply the session rules to calls made with auth: false', async () => {
    const { client, loggedOut, calls } = setup(() =>
      json(401, { error: 'ERR_SUBSCRIPTION_EXPIRED', message: 'expired', dueDate: '2024-01-31' }),
    );

    const error = (await client
      .post('/auth/login', { email: 'a@b.c', password: 'x' }, { auth: false })
      .catch((e: unknown) => e)) as ApiError;
    expect(error.code).toBe('ERR_SUBSCRIPTION_EXPIRED');
    expect(error.body.dueDate).toBe('2024-01-31');
    expect(loggedOut).not.toHaveBeenCalled();
    expect(calls('/auth/refresh_token')).toHaveLength(0);
  });
});
