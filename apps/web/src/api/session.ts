import { type SessionReply, STORAGE } from '@balcao/shared';

/** Browser-storage side of a session: the keys spec §3 lists, written on login and cleared on logout. */

export function getToken(): string | null {
  return localStorage.getItem(STORAGE.token);
}

export function hasStoredSession(): boolean {
  return Boolean(getToken());
}

export function saveSession({ token, user }: SessionReply): void {
  localStorage.setItem(STORAGE.token, token);
  localStorage.setItem(STORAGE.companyId, String(user.companyId));
  localStorage.setItem(STORAGE.userId, String(user.id));
  localStorage.setItem(STORAGE.loggedIn, 'true');
  if (user.company.dueDate) localStorage.setItem(STORAGE.companyDueDate, user.company.dueDate);
  else localStorage.removeItem(STORAGE.companyDueDate);
  const campaignsEnabled = user.company.settings.some((s) => s.key === 'campaignsEnabled' && s.value === 'true');
  if (campaignsEnabled) localStorage.setItem(STORAGE.cshow, 'true');
}

export function clearSession(): void {
  for (const key of [STORAGE.token, STORAGE.companyId, STORAGE.userId, STORAGE.companyDueDate, STORAGE.cshow]) {
    localStorage.removeItem(key);
  }
  localStorage.setItem(STORAGE.loggedIn, 'false');
}

/** The session id carried by an access token (claim `sessionId` or `sid`), when it has one. */
export function tokenSessionId(token: string): string | undefined {
  try {
    const payload = token.split('.')[1] ?? '';
    const claims = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as Record<string, unknown>;
    const id = claims.sessionId ?? claims.sid;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}
