import { generateKeyPairSync, type KeyObject, verify } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for Google's OAuth2 token endpoint and Dialogflow ES, over real HTTP.
 * `POST /token` takes a JWT-bearer grant and checks the assertion as Google does: RS256 signature
 * against the public key of the service account named in `iss` (accounts the fake created with
 * `createServiceAccount`), `aud` = this endpoint, the Dialogflow scope, and not expired.
 * `POST /v2/projects/{project}/agent/sessions/{session}:detectIntent` requires a token it issued.
 * Every request is recorded; detectIntent answers are scripted per test, in order.
 */

export type FakeDialogflowReply =
  /** A 200 with this `queryResult`. */
  | { queryResult: Record<string, unknown> }
  /** An error status with Google's error body. */
  | { status: number }
  /** Never answers. */
  | { hang: true };

export interface TokenRequest {
  grantType: string | null;
  /** The assertion's claims, when it could be decoded. */
  claims: Record<string, unknown> | null;
  /** Signature, audience, scope and expiry all good. */
  assertionValid: boolean;
}

export interface DetectIntentRequest {
  project: string;
  session: string;
  token: string;
  body: { queryInput?: { text?: { text?: string; languageCode?: string } } };
}

export interface FakeDialogflow {
  /** DIALOGFLOW_BASE_URL. */
  url: string;
  /** The `token_uri` the service accounts carry. */
  tokenUri: string;
  tokenRequests: TokenRequest[];
  detectIntents: DetectIntentRequest[];
  /** `expires_in` of the tokens issued, in seconds. */
  tokenTtlSeconds: number;
  /** A service-account JSON for a fresh key pair the token endpoint will trust. */
  createServiceAccount(overrides?: Record<string, unknown>): string;
  /** Makes every token issued so far unknown (as when its key is revoked). */
  revokeTokens(): void;
  script(...replies: FakeDialogflowReply[]): void;
  reset(): void;
  close(): Promise<void>;
}

const SCOPE = 'https://www.googleapis.com/auth/dialogflow';

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function decode(part: string): Record<string, unknown> | null {
  try {
    return JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    return null;
  }
}

export async function startFakeDialogflow(): Promise<FakeDialogflow> {
  const script: FakeDialogflowReply[] = [];
  const hanging = new Set<ServerResponse>();
  const publicKeys = new Map<string, KeyObject>();
  const issued = new Set<string>();
  let accountSeq = 0;
  let tokenSeq = 0;

  const fake: FakeDialogflow = {
    url: '',
    tokenUri: '',
    tokenRequests: [],
    detectIntents: [],
    tokenTtlSeconds: 3599,
    createServiceAccount(overrides = {}) {
      const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const email = `bot-${++accountSeq}@balcao-test.iam.gserviceaccount.com`;
      publicKeys.set(email, publicKey);
      return JSON.stringify({
        type: 'service_account',
        project_id: 'balcao-test',
        private_key_id: `key${accountSeq}`,
        private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }),
        client_email: email,
        client_id: String(100000 + accountSeq),
        auth_uri: 'https://accounts.google.com/o/oauth2/auth',
        token_uri: fake.tokenUri,
        ...overrides,
      });
    },
    revokeTokens: () => issued.clear(),
    script: (...replies) => script.push(...replies),
    reset() {
      script.length = 0;
      fake.tokenRequests.length = 0;
      fake.detectIntents.length = 0;
      fake.tokenTtlSeconds = 3599;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  function checkAssertion(assertion: string): { claims: TokenRequest['claims']; valid: boolean } {
    const [header, payload, signature] = assertion.split('.');
    const claims = payload ? decode(payload) : null;
    const key = typeof claims?.iss === 'string' ? publicKeys.get(claims.iss) : undefined;
    const signed =
      !!key &&
      decode(header)?.alg === 'RS256' &&
      verify('RSA-SHA256', Buffer.from(`${header}.${payload}`), key, Buffer.from(signature ?? '', 'base64url'));
    const now = Math.floor(Date.now() / 1000);
    const valid =
      signed &&
      claims?.aud === fake.tokenUri &&
      claims.scope === SCOPE &&
      typeof claims.exp === 'number' &&
      claims.exp > now &&
      typeof claims.iat === 'number' &&
      claims.iat <= now + 60;
    return { claims, valid };
  }

  const server = createServer(async (req, res) => {
    const path = (req.url ?? '').split('?')[0];
    const raw = await bodyOf(req);
    if (req.method !== 'POST') return send(res, 405, { error: 'method_not_allowed' });

    if (path === '/token') {
      const form = new URLSearchParams(raw);
      const { claims, valid } = checkAssertion(form.get('assertion') ?? '');
      const grantType = form.get('grant_type');
      const assertionValid = valid && grantType === 'urn:ietf:params:oauth:grant-type:jwt-bearer';
      fake.tokenRequests.push({ grantType, claims, assertionValid });
      if (!assertionValid)
        return send(res, 400, { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });
      const token = `ya29.fake-${++tokenSeq}`;
      issued.add(token);
      return send(res, 200, { access_token: token, expires_in: fake.tokenTtlSeconds, token_type: 'Bearer' });
    }

    const match = /^\/v2\/projects\/([^/]+)\/agent\/sessions\/([^/]+):detectIntent$/.exec(path);
    if (!match) return send(res, 404, { error: { code: 404, message: 'Not found', status: 'NOT_FOUND' } });
    const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    fake.detectIntents.push({
      project: decodeURIComponent(match[1]),
      session: decodeURIComponent(match[2]),
      token,
      body: JSON.parse(raw || '{}') as DetectIntentRequest['body'],
    });
    if (!issued.has(token))
      return send(res, 401, {
        error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' },
      });

    const reply = script.shift() ?? {
      queryResult: { fulfillmentText: 'Olá!', fulfillmentMessages: [{ text: { text: ['Olá!'] } }] },
    };
    if ('hang' in reply) {
      hanging.add(res);
      res.on('close', () => hanging.delete(res));
      return;
    }
    if ('status' in reply)
      return send(res, reply.status, { error: { code: reply.status, message: 'Scripted', status: 'INTERNAL' } });
    const text = fake.detectIntents.at(-1)?.body.queryInput?.text;
    send(res, 200, {
      responseId: `resp-${fake.detectIntents.length}`,
      queryResult: {
        queryText: text?.text,
        languageCode: text?.languageCode,
        allRequiredParamsPresent: true,
        intentDetectionConfidence: 1,
        ...reply.queryResult,
      },
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.tokenUri = `${fake.url}/token`;
  return fake;
}
