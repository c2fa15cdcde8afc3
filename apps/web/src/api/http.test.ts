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

describe('http client: uploads and files', () => {
  beforeEach(() => {
    localStorage.setItem(STORAGE.token, 'old-token');
  });

  function headersOf(init: RequestInit | undefined): Record<string, string> {
    return (init?.headers as Record<string, string> | undefined) ?? {};
  }

  it('posts a FormData as it is, without a JSON content type, and reads the JSON reply', async () => {
    const { client, fetch } = setup(() => json(200, [{ id: 50 }]));
    const form = new FormData();
    form.append('body', 'legenda');
    form.append('medias', new File(['abc'], 'a.txt', { type: 'text/plain' }), 'a.txt');

    await expect(client.postForm('/messages/1', form)).resolves.toEqual([{ id: 50 }]);
    const [input, init] = fetch.mock.calls[0];
    expect(String(input)).toBe(`${BASE}/messages/1`);
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe(form);
    expect(init?.credentials).toBe('include');
    expect(headersOf(init).Authorization).toBe('Bearer old-token');
    expect(headersOf(init)['Content-Type']).toBeUndefined();
  });

  it('retries an upload with the same form after refreshing on a token 403', async () => {
    const { client, calls, loggedOut } = setup((path, init) => {
      if (path === '/auth/refresh_token') return json(200, sessionReply({ token: 'new-token' }));
      return authHeader(init) === 'Bearer new-token' ? json(200, { id: 3 }) : json(403, {});
    });
    const form = new FormData();
    form.append('file', new File(['x'], 'x.png'));

    await expect(client.postForm('/quick-messages/3/media-upload', form)).resolves.toEqual({ id: 3 });
    const uploads = calls('/quick-messages/3/media-upload');
    expect(uploads).toHaveLength(2);
    expect(uploads[1][1]?.body).toBe(form);
    expect(calls('/auth/refresh_token')).toHaveLength(1);
    expect(loggedOut).not.toHaveBeenCalled();
  });

  it('fetches a file as a Blob with the token', async () => {
    const { client, fetch } = setup(
      () => new Response(new Uint8Array([1, 2, 3]), { status: 200, headers: { 'Content-Type': 'audio/mpeg' } }),
    );
    const blob = await client.getBlob('/media/1/a.mp3');
    expect(blob.type).toBe('audio/mpeg');
    expect([...new Uint8Array(await blob.arrayBuffer())]).toEqual([1, 2, 3]);
    const [input, init] = fetch.mock.calls[0];
    expect(String(input)).toBe(`${BASE}/media/1/a.mp3`);
    expect(headersOf(init).Authorization).toBe('Bearer old-token');
  });

  it('a file call answered 401 ends the session; a 404 is an ApiError that keeps it', async () => {
    const gone = setup(() => json(404, { error: 'ERR_NOT_FOUND' }));
    await expect(gone.client.getBlob('/media/x')).rejects.toMatchObject({ status: 404, code: 'ERR_NOT_FOUND' });
    expect(gone.loggedOut).not.toHaveBeenCalled();

    const expired = setup(() => json(401, { error: 'ERR_SESSION_EXPIRED' }));
    await expect(expired.client.postForm('/messages/1', new FormData())).rejects.toBeInstanceOf(ApiError);
    expect(expired.loggedOut).toHaveBeenCalledTimes(1);
    expect(localStorage.getItem(STORAGE.token)).toBeNull();
  });
});
