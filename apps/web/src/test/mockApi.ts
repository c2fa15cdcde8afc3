import { vi } from 'vitest';

type Reply = { status?: number; body?: unknown };
type Handler = (body: unknown, url: URL) => Reply | unknown;

/**
 * Stubs `fetch` with replies keyed by "METHOD /path" (query string ignored). A handler returns
 * the body to send with 200, or `{ status, body }`. Unknown routes answer 404.
 */
export function mockApi(routes: Record<string, Handler>) {
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    const method = init?.method ?? 'GET';
    const handler = routes[`${method} ${url.pathname}`];
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    const result = handler ? handler(body, url) : { status: 404, body: { error: 'ERR_NOT_FOUND' } };
    const reply: Reply =
      result && typeof result === 'object' && 'status' in result ? (result as Reply) : { body: result };
    return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), {
      status: reply.status ?? 200,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetch);
  const calls = (route: string) =>
    fetch.mock.calls
      .filter(([input, init]) => `${init?.method ?? 'GET'} ${new URL(String(input)).pathname}` === route)
      .map(([, init]) => (typeof init?.body === 'string' ? JSON.parse(init.body) : undefined));
  return { fetch, calls };
}
