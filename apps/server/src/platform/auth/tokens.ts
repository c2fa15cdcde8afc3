import { errors, jwtVerify, SignJWT } from 'jose';

export interface AccessClaims {
  userId: number;
  companyId: number;
  sessionId: string;
}

export interface TokenService {
  signAccess(claims: AccessClaims): Promise<string>;
  /** Returns null when the token is missing, malformed, expired or forged. */
  verifyAccess(token: string): Promise<AccessClaims | null>;
  signRefresh(claims: AccessClaims): Promise<string>;
  verifyRefresh(token: string): Promise<AccessClaims | null>;
}

/** Access tokens remembered as verified: one per signed-in tab, the oldest forgotten first. */
const VERIFIED_TOKENS = 10_000;

export function createTokenService(opts: {
  accessSecret: string;
  refreshSecret: string;
  accessTtl: string;
  refreshTtlDays: number;
}): TokenService {
  const accessKey = new TextEncoder().encode(opts.accessSecret);
  const refreshKey = new TextEncoder().encode(opts.refreshSecret);

  const sign = (claims: AccessClaims, key: Uint8Array, ttl: string, typ: string) =>
    new SignJWT({ cid: claims.companyId, sid: claims.sessionId, typ })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(claims.userId))
      .setIssuedAt()
      .setExpirationTime(ttl)
      .sign(key);

  const check = async (
    token: string,
    key: Uint8Array,
    typ: string,
  ): Promise<{ claims: AccessClaims; expiresAt: number } | null> => {
    try {
      const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
      if (payload.typ !== typ || typeof payload.sid !== 'string' || typeof payload.cid !== 'number') return null;
      const claims = { userId: Number(payload.sub), companyId: payload.cid, sessionId: payload.sid };
      return { claims, expiresAt: (payload.exp ?? 0) * 1000 };
    } catch (err) {
      if (err instanceof errors.JOSEError) return null;
      throw err;
    }
  };

  // Every request presents its access token again: the signature is checked once per token, and
  // until the token expires its claims come from here. Only tokens that passed the check are kept
  // (a forged one cannot fill it); revocation is the session check's, which runs on every request.
  const verified = new Map<string, { claims: AccessClaims; expiresAt: number }>();
  const verifyAccess = async (token: string): Promise<AccessClaims | null> => {
    const known = verified.get(token) ?? (await check(token, accessKey, 'access'));
    if (!known || known.expiresAt <= Date.now()) {
      verified.delete(token);
      return null;
    }
    if (!verified.has(token)) {
      if (verified.size >= VERIFIED_TOKENS) verified.delete(verified.keys().next().value as string);
      verified.set(token, known);
    }
    return known.claims;
  };

  return {
    signAccess: (c) => sign(c, accessKey, opts.accessTtl, 'access'),
    verifyAccess,
    signRefresh: (c) => sign(c, refreshKey, `${opts.refreshTtlDays}d`, 'refresh'),
    verifyRefresh: async (t) => (await check(t, refreshKey, 'refresh'))?.claims ?? null,
  };
}
