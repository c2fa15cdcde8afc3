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

  const check = async (token: string, key: Uint8Array, typ: string): Promise<AccessClaims | null> => {
    try {
      const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
      if (payload.typ !== typ || typeof payload.sid !== 'string' || typeof payload.cid !== 'number') return null;
      return { userId: Number(payload.sub), companyId: payload.cid, sessionId: payload.sid };
    } catch (err) {
      if (err instanceof errors.JOSEError) return null;
      throw err;
    }
  };

  return {
    signAccess: (c) => sign(c, accessKey, opts.accessTtl, 'access'),
    verifyAccess: (t) => check(t, accessKey, 'access'),
    signRefresh: (c) => sign(c, refreshKey, `${opts.refreshTtlDays}d`, 'refresh'),
    verifyRefresh: (t) => check(t, refreshKey, 'refresh'),
  };
}
