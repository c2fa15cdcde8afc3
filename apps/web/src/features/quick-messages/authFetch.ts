import { http } from '../../api/client';
import { backendUrl } from '../../api/config';
import { ApiError } from '../../api/http';
import { getToken } from '../../api/session';

async function errorOf(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  let body: Record<string, unknown> = { message: text };
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object') body = parsed as Record<string, unknown>;
  } catch {
    // not JSON: keep the text
  }
  return new ApiError(response.status, body);
}

async function isTokenRefusal(response: Response): Promise<boolean> {
  try {
    const body = (await response.clone().json()) as { error?: unknown } | null;
    return body?.error === undefined || body.error === 'ERR_INVALID_TOKEN';
  } catch {
    return true;
  }
}

/**
 * A call the JSON client cannot make (multipart uploads, files as blobs) with the same session
 * rules: bearer token, one refresh and retry on a token 403, the session ends on a 401.
 */
export async function authFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const send = () => {
    const headers = new Headers(init.headers);
    const token = getToken();
    if (token) headers.set('Authorization', `Bearer ${token}`);
    return globalThis.fetch(`${backendUrl()}${path}`, { ...init, headers, credentials: 'include' });
  };
  let response = await send();
  if (response.status === 403 && (await isTokenRefusal(response))) {
    try {
      await http.refreshSession();
    } catch {
      const denied = await errorOf(response);
      http.endSession();
      throw denied;
    }
    response = await send();
  }
  if (response.status === 401) {
    const unauthorized = await errorOf(response);
    http.endSession();
    throw unauthorized;
  }
  if (!response.ok) throw await errorOf(response);
  return response;
}
