import type { Page } from 'playwright-core';
import type { Product } from './product';
import { type Credentials, eventually, localStorageItem, TIMEOUT_MS } from './ui';

/**
 * The product's HTTP API for test setup, as one user (a bearer token). Every reply that is not
 * 2xx throws with the method, path, status and body, so a broken setup names its call.
 */
export interface Api {
  get<T = unknown>(path: string): Promise<T>;
  post<T = unknown>(path: string, body?: unknown): Promise<T>;
  put<T = unknown>(path: string, body?: unknown): Promise<T>;
  delete<T = unknown>(path: string): Promise<T>;
  /** A multipart upload (`FormData`, e.g. a file under its field name). */
  postForm<T = unknown>(path: string, form: FormData): Promise<T>;
}

async function call<T>(product: Product, token: string | null, method: string, path: string, body?: unknown) {
  const form = body instanceof FormData;
  const response = await fetch(`${product.apiUrl}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      // FormData sets its own multipart content type (with the boundary).
      ...(body === undefined || form ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : form ? body : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 500)}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

export function api(product: Product, token: string): Api {
  return {
    get: (path) => call(product, token, 'GET', path),
    post: (path, body) => call(product, token, 'POST', path, body ?? {}),
    put: (path, body) => call(product, token, 'PUT', path, body ?? {}),
    delete: (path) => call(product, token, 'DELETE', path),
    postForm: (path, form) => call(product, token, 'POST', path, form),
  };
}

/**
 * Logs in through the API and returns the access token. A login ends the user's other sessions
 * (spec: "logged in elsewhere"), so do not use it for a user who is logged in in the browser: take
 * that page's token with `pageApi` instead.
 */
export async function apiLogin(product: Product, credentials: Credentials): Promise<string> {
  const reply = await call<{ token: string }>(product, null, 'POST', '/auth/login', credentials);
  return reply.token;
}

/** The API as the user logged in on `page` (the token the web client keeps in localStorage). */
export async function pageApi(product: Product, page: Page): Promise<Api> {
  const token = await localStorageItem(page, 'token');
  if (!token) throw new Error('no token in the page: not logged in');
  return api(product, token);
}

/** Polls `probe` until it returns a value (not undefined/null/false); fails with `what` after the timeout. */
export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined | null | false>,
  timeoutMs = TIMEOUT_MS,
): Promise<T> {
  let found: T | undefined;
  await eventually(async () => {
    const value = await probe();
    if (value === undefined || value === null || value === false) throw new Error(`timed out waiting for ${what}`);
    found = value;
  }, timeoutMs);
  return found as T;
}

/** What the contact's phone received on a sandbox connection (GET /sandbox/:id/outbound). */
export interface OutboundItem {
  id: number;
  providerId: string;
  body: string;
  media: { fileName: string; mimetype: string; url: string } | null;
  quotedProviderId: string | null;
  ack: number;
  deleted: boolean;
  createdAt: string;
}

export interface InboundMessage {
  number: string;
  name?: string;
  body?: string;
  media?: { fileName: string; mimetype: string; base64: string };
  quotedProviderId?: string;
}

/** The simulated phone of a sandbox connection (admin only). */
export function sandboxPhone(admin: Api, whatsappId: number) {
  const outbound = (number: string) => admin.get<OutboundItem[]>(`/sandbox/${whatsappId}/outbound?number=${number}`);
  return {
    /** The contact writes: goes through the inbound pipeline before the call returns. */
    inbound: (message: InboundMessage) => admin.post<{ providerId: string }>(`/sandbox/${whatsappId}/inbound`, message),
    outbound,
    ack: (providerId: string, ack: 2 | 3) => admin.post(`/sandbox/${whatsappId}/ack`, { providerId, ack }),
    /** Polls the phone until it received a message that `match` accepts. */
    received: (number: string, what: string, match: (item: OutboundItem) => boolean): Promise<OutboundItem> =>
      until(`the phone of ${number} to receive ${what}`, async () => (await outbound(number)).find(match)),
  };
}

/**
 * Creates a sandbox connection (the company's default) serving `queueIds`, starts its session and
 * has the simulated phone scan the QR code; resolves with its id once it is CONNECTED.
 */
export async function connectedSandbox(admin: Api, name: string, queueIds: number[]): Promise<number> {
  const { id } = await admin.post<{ id: number }>('/whatsapp', {
    name,
    provider: 'sandbox',
    isDefault: true,
    queueIds,
  });
  await admin.post(`/whatsappsession/${id}`);
  await until(`connection ${id} to show a QR code`, async () => {
    const { status } = await admin.get<{ status: string }>(`/whatsapp/${id}`);
    return status === 'qrcode';
  });
  await admin.post(`/sandbox/${id}/scan`);
  await until(`connection ${id} to be CONNECTED`, async () => {
    const { status } = await admin.get<{ status: string }>(`/whatsapp/${id}`);
    return status === 'CONNECTED';
  });
  return id;
}
