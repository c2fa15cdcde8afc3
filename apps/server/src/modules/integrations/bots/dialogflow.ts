import { createHash, sign } from 'node:crypto';
import {
  guardedFetch,
  OutboundError,
  type OutboundInit,
  type OutboundResponse,
} from '../../../platform/http/outbound.js';
import { type BotAnswer, type BotClient, BotError, type BotOutput, type ControlVerb, parseControlVerb } from './bot.js';

/**
 * Dialogflow ES `detectIntent` over REST (DOMAIN §17), authenticated as the integration's service
 * account: a JWT signed with its private key is exchanged for an OAuth2 access token at its
 * `token_uri`. Credentials live only in memory, decrypted by the caller; tokens are cached per
 * integration and rebuilt as soon as the service-account JSON changes. A fulfilment payload
 * `{action: "handoff"}` (or an intent whose action is a control verb) hands the ticket over.
 */

export interface DialogflowOptions {
  allowPrivate: boolean;
  /** DIALOGFLOW_BASE_URL. */
  baseUrl: string;
  /** Per request (token and detectIntent each). */
  timeoutMs: number;
}

interface ServiceAccount {
  client_email: string;
  private_key: string;
  private_key_id?: string;
  project_id?: string;
  token_uri?: string;
}

interface QueryResult {
  fulfillmentText?: string;
  fulfillmentMessages?: { platform?: string; text?: { text?: unknown[] }; payload?: { action?: unknown } }[];
  action?: string;
  diagnosticInfo?: { end_conversation?: boolean };
}

const SCOPE = 'https://www.googleapis.com/auth/dialogflow';
const DEFAULT_TOKEN_URI = 'https://oauth2.googleapis.com/token';
/** Google's maximum for a self-signed assertion. */
const ASSERTION_LIFETIME_S = 3600;
/** A token this close to expiry is renewed first, so no call carries one that dies in flight. */
const RENEW_BEFORE_MS = 60_000;
const MAX_CACHED_TOKENS = 500;
/** Dialogflow ES refuses longer text queries. */
const MAX_QUERY_CHARS = 256;

interface CachedToken {
  /** Hash of the service-account JSON the token was made from. */
  fingerprint: string;
  token: Promise<{ value: string; expiresAt: number }>;
}

/** Shared by every client, so a token outlives the client built for one turn. Keyed by integration id. */
const tokens = new Map<number, CachedToken>();

function serviceAccountOf(jsonContent: string): ServiceAccount {
  let raw: unknown;
  try {
    raw = JSON.parse(jsonContent);
  } catch {
    throw new BotError('service-account JSON is not valid JSON');
  }
  const sa = raw as Partial<ServiceAccount> | null;
  if (typeof sa?.client_email !== 'string' || typeof sa.private_key !== 'string')
    throw new BotError('service-account JSON lacks client_email or private_key');
  return sa as ServiceAccount;
}

function assertionOf(sa: ServiceAccount, audience: string): string {
  const now = Math.floor(Date.now() / 1000);
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const header = part({ alg: 'RS256', typ: 'JWT', ...(sa.private_key_id ? { kid: sa.private_key_id } : {}) });
  const claims = part({ iss: sa.client_email, scope: SCOPE, aud: audience, iat: now, exp: now + ASSERTION_LIFETIME_S });
  let signature: Buffer;
  try {
    signature = sign('RSA-SHA256', Buffer.from(`${header}.${claims}`), sa.private_key);
  } catch {
    throw new BotError('service-account private_key is not a usable RSA key');
  }
  return `${header}.${claims}.${signature.toString('base64url')}`;
}

function jsonOf(res: OutboundResponse): unknown {
  try {
    return res.json();
  } catch {
    throw new BotError('answer is not JSON', res.status);
  }
}

function uniqueVerbs(verbs: ControlVerb[]): ControlVerb[] {
  const seen = new Set<string>();
  return verbs.filter((v) => {
    const key = JSON.stringify(v);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function answerOf(result: QueryResult, sessionId: string): BotAnswer {
  const outputs: BotOutput[] = [];
  const actions: ControlVerb[] = [];
  const text = (value: unknown) => {
    if (typeof value !== 'string' || !value.trim()) return;
    const verb = parseControlVerb(value);
    if (verb) actions.push(verb);
    else outputs.push({ kind: 'text', text: value });
  };

  const verb = parseControlVerb(result.action ?? '');
  if (verb) actions.push(verb);
  let hasTextMessage = false;
  for (const message of result.fulfillmentMessages ?? []) {
    // Messages meant for another platform (Facebook, Telegram…) repeat the default ones.
    if (message.platform && message.platform !== 'PLATFORM_UNSPECIFIED') continue;
    if (message.text) {
      hasTextMessage = true;
      for (const line of message.text.text ?? []) text(line);
    }
    const named = message.payload?.action;
    const payloadVerb = typeof named === 'string' ? parseControlVerb(named) : null;
    if (payloadVerb) actions.push(payloadVerb);
  }
  if (!hasTextMessage) text(result.fulfillmentText);

  return {
    outputs,
    sessionId,
    actions: uniqueVerbs(actions),
    ...(result.diagnosticInfo?.end_conversation === true ? { finished: true } : {}),
  };
}

export function createDialogflowClient(opts: DialogflowOptions): BotClient {
  const base = opts.baseUrl.replace(/\/+$/, '');

  async function call(url: string, init: OutboundInit): Promise<OutboundResponse> {
    try {
      return await guardedFetch(url, init, opts);
    } catch (err) {
      if (err instanceof OutboundError) throw new BotError(err.message);
      throw err;
    }
  }

  async function fetchToken(sa: ServiceAccount): Promise<{ value: string; expiresAt: number }> {
    const tokenUri = sa.token_uri || DEFAULT_TOKEN_URI;
    const res = await call(tokenUri, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
        assertion: assertionOf(sa, tokenUri),
      }).toString(),
    });
    if (!res.ok) throw new BotError(`token request: HTTP ${res.status}`, res.status);
    const raw = jsonOf(res) as { access_token?: unknown; expires_in?: unknown };
    if (typeof raw.access_token !== 'string' || !raw.access_token)
      throw new BotError('token answer without access_token');
    const lifetimeS = typeof raw.expires_in === 'number' ? raw.expires_in : ASSERTION_LIFETIME_S;
    return { value: raw.access_token, expiresAt: Date.now() + lifetimeS * 1000 };
  }

  async function accessToken(integrationId: number, jsonContent: string, sa: ServiceAccount): Promise<string> {
    const fingerprint = createHash('sha256').update(jsonContent).digest('hex');
    const cached = tokens.get(integrationId);
    if (cached?.fingerprint === fingerprint) {
      const token = await cached.token;
      if (token.expiresAt - RENEW_BEFORE_MS > Date.now()) return token.value;
    }
    // Concurrent turns of one integration share the request in flight; a failed one is forgotten.
    const token = fetchToken(sa);
    tokens.delete(integrationId);
    tokens.set(integrationId, { fingerprint, token });
    if (tokens.size > MAX_CACHED_TOKENS) tokens.delete(tokens.keys().next().value as number);
    token.catch(() => {
      if (tokens.get(integrationId)?.token === token) tokens.delete(integrationId);
    });
    return (await token).value;
  }

  return {
    async turn(turn) {
      const { integration } = turn;
      const sessionId = turn.sessionId ?? `ticket-${turn.ticketId}`;
      const query = (turn.message.text || turn.message.transcript || '').trim().slice(0, MAX_QUERY_CHARS);
      // Dialogflow only understands text: a photo without caption has nothing to ask.
      if (!query) return { outputs: [], sessionId, actions: [] };

      const sa = serviceAccountOf(integration.jsonContent);
      const project = integration.projectName || sa.project_id;
      if (!project) throw new BotError('no Dialogflow project: set projectName or project_id');
      const token = await accessToken(integration.id, integration.jsonContent, sa);

      const res = await call(
        `${base}/v2/projects/${encodeURIComponent(project)}/agent/sessions/${encodeURIComponent(sessionId)}:detectIntent`,
        {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ queryInput: { text: { text: query, languageCode: integration.language } } }),
        },
      );
      // A refused token (revoked key) is not reused by the next turn.
      if (res.status === 401) tokens.delete(integration.id);
      if (!res.ok) throw new BotError(`HTTP ${res.status}`, res.status);
      const raw = jsonOf(res) as { queryResult?: QueryResult };
      return answerOf(raw.queryResult ?? {}, sessionId);
    },
  };
}
