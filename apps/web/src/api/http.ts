import type { SessionReply } from '@balcao/shared';
import { clearSession, getToken, saveSession } from './session';

/** A non-2xx reply of the API: `code` is the `ERR_*` code of the body when there is one. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly body: Record<string, unknown>;

  constructor(status: number, body: Record<string, unknown>) {
    const code = typeof body.error === 'string' ? body.error : undefined;
    super(typeof body.message === 'string' ? body.message : (code ?? `HTTP ${status}`));
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.body = body;
  }
}

const JSON_TYPE = 'application/json';

type Query = Record<string, string | number | boolean | undefined>;

export interface RequestOptions {
  query?: Query;
  /** Sent as JSON, or as it is when it is a `FormData` (multipart; the browser sets the boundary). */
  body?: unknown;
  /** false for the calls that establish a session (login): no refresh, no logout on failure. */
  auth?: boolean;
}

export interface HttpClientOptions {
  baseUrl: () => string;
  fetch?: typeof fetch;
}

type Listener<T> = (value: T) => void;

/**
 * The API client and the auth rule of spec §4: a 403 reply triggers one token refresh and one
 * retry (concurrent 403s share the refresh); a failed refresh or a 401 reply ends the session.
 */
export function createHttpClient({
  baseUrl,
  fetch: fetchImpl = (...args) => globalThis.fetch(...args),
}: HttpClientOptions) {
  const refreshedListeners = new Set<Listener<SessionReply>>();
  const loggedOutListeners = new Set<Listener<void>>();
  let refreshing: Promise<SessionReply> | null = null;

  function url(path: string, query?: Query): string {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined) params.set(key, String(value));
    }
    const search = params.toString();
    return `${baseUrl()}${path}${search ? `?${search}` : ''}`;
  }

  function send(method: string, path: string, options: RequestOptions, accept: string): Promise<Response> {
    const headers: Record<string, string> = { Accept: accept };
    const token = getToken();
    if (token) headers.Authorization = `Bearer ${token}`;
    const { body } = options;
    const form = body instanceof FormData;
    if (body !== undefined && !form) headers['Content-Type'] = 'application/json';
    return fetchImpl(url(path, options.query), {
      method,
      headers,
      credentials: 'include',
      body: body === undefined ? undefined : form ? body : JSON.stringify(body),
    });
  }

  async function readBody(response: Response): Promise<unknown> {
    const text = await response.text();
    if (!text) return undefined;
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }

  async function toError(response: Response): Promise<ApiError> {
    const body = await readBody(response);
    const record = body && typeof body === 'object' ? (body as Record<string, unknown>) : { message: body };
    return new ApiError(response.status, record);
  }

  function endSession(): void {
    clearSession();
    for (const listener of loggedOutListeners) listener();
  }

  /** POST /auth/refresh_token (cookie based); stores and announces the new session. */
  function refreshSession(): Promise<SessionReply> {
    refreshing ??= (async () => {
      try {
        const response = await send('POST', '/auth/refresh_token', {}, JSON_TYPE);
        if (!response.ok) throw await toError(response);
        const reply = (await readBody(response)) as SessionReply;
        saveSession(reply);
        for (const listener of refreshedListeners) listener(reply);
        return reply;
      } finally {
        refreshing = null;
      }
    })();
    return refreshing;
  }

  /**
   * A 403 about the token itself (or one without an error code) is worth a refresh; a 403 that
   * names a rule (`ERR_NO_PERMISSION`, a plan limit) would fail again and must not be retried.
   */
  async function isTokenRefusal(response: Response): Promise<boolean> {
    const body = await readBody(response.clone());
    const code = body && typeof body === 'object' ? (body as Record<string, unknown>).error : undefined;
    return code === undefined || code === 'ERR_INVALID_TOKEN';
  }

  /** The successful reply of a call under the session rules; a non-2xx reply is thrown as an ApiError. */
  async function fetchOk(method: string, path: string, options: RequestOptions, accept = JSON_TYPE): Promise<Response> {
    const withAuth = options.auth !== false;
    let response = await send(method, path, options, accept);
    if (withAuth && response.status === 403 && (await isTokenRefusal(response))) {
      try {
        await refreshSession();
      } catch {
        const denied = await toError(response);
        endSession();
        throw denied;
      }
      response = await send(method, path, options, accept);
    }
    if (withAuth && response.status === 401) {
      const unauthorized = await toError(response);
      endSession();
      throw unauthorized;
    }
    if (!response.ok) throw await toError(response);
    return response;
  }

  async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    return (await readBody(await fetchOk(method, path, options))) as T;
  }

  return {
    request,
    get: <T>(path: string, query?: Query) => request<T>('GET', path, { query }),
    post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>) =>
      request<T>('POST', path, { ...options, body }),
    put: <T>(path: string, body?: unknown) => request<T>('PUT', path, { body }),
    delete: <T = void>(path: string) => request<T>('DELETE', path),
    /** A multipart upload (files and fields); the reply is read as JSON. */
    postForm: <T>(path: string, form: FormData) => request<T>('POST', path, { body: form }),
    /** A file the API serves only to the session (message media), as a Blob. */
    getBlob: async (path: string): Promise<Blob> => (await fetchOk('GET', path, {}, '*/*')).blob(),
    refreshSession,
    endSession,
    onSessionRefreshed(listener: Listener<SessionReply>): () => void {
      refreshedListeners.add(listener);
      return () => refreshedListeners.delete(listener);
    },
    onLoggedOut(listener: Listener<void>): () => void {
      loggedOutListeners.add(listener);
      return () => loggedOutListeners.delete(listener);
    },
  };
}

export type HttpClient = ReturnType<typeof createHttpClient>;
