import { lookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Calls to addresses an admin typed (typebot, n8n, webhook, Dialogflow's token URI), DOMAIN §11:
 * http(s) only, a deadline over the whole call (DNS, connect, answer), and no loopback, private,
 * link-local or CGNAT address unless the configuration allows them. The host is resolved once and
 * the connection made to that checked address, so a DNS answer that changes between the check and
 * the connect (rebinding) cannot reach the inside; TLS still verifies the certificate against the
 * host name. Redirects are not followed: a 3xx comes back as it is.
 */

export type OutboundFailure = 'invalid-url' | 'refused' | 'timeout' | 'network' | 'too-large';

/** A call that did not get an answer. The message names the host at most, never the URL (it may hold a token). */
export class OutboundError extends Error {
  constructor(
    message: string,
    readonly reason: OutboundFailure,
  ) {
    super(message);
    this.name = 'OutboundError';
  }
}

export interface OutboundInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface OutboundOptions {
  /** For the whole call, answer body included. */
  timeoutMs: number;
  /** Lets loopback and private addresses through (OUTBOUND_ALLOW_PRIVATE; tests' local fakes). */
  allowPrivate: boolean;
  /** The largest answer body read; 1 MiB unless given (a bot's media file needs more). */
  maxBytes?: number;
}

/** The answer, already read in full (so the deadline covers it). */
export interface OutboundResponse {
  status: number;
  ok: boolean;
  headers: IncomingHttpHeaders;
  body(): Buffer;
  text(): string;
  /** Throws a SyntaxError when the body is not JSON. */
  json(): unknown;
}

/** An admin-set service answers chat turns; anything bigger is a mistake or an attack. */
const DEFAULT_MAX_BYTES = 1024 * 1024;

const refused = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['224.0.0.0', 3],
] as const)
  refused.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  refused.addSubnet(network, prefix, 'ipv6');

/** Whether an address is one an admin-set URL may not reach. IPv4-mapped IPv6 (`::ffff:a.b.c.d`) counts as its IPv4. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return refused.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

interface Resolved {
  address: string;
  family: number;
}

async function resolve(hostname: string): Promise<Resolved[]> {
  const host = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  const family = isIP(host);
  if (family) return [{ address: host, family }];
  return lookup(host, { all: true, verbatim: true });
}

/** Hands the socket the address already checked instead of asking DNS again. */
function pinnedLookup(target: Resolved): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [target]);
    else callback(null, target.address, target.family);
  };
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function send(
  url: URL,
  init: OutboundInit,
  target: Resolved,
  signal: AbortSignal,
  maxBytes: number,
): Promise<OutboundResponse> {
  const body = init.body === undefined ? undefined : Buffer.from(init.body, 'utf8');
  return new Promise((resolve, reject) => {
    const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(
      url,
      {
        method: init.method ?? 'GET',
        headers: body ? { ...init.headers, 'content-length': String(body.length) } : init.headers,
        lookup: pinnedLookup(target),
        // No pooled socket may outlive the call or skip the pinned lookup.
        agent: false,
        signal,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            reject(new OutboundError('answer too large', 'too-large'));
            req.destroy();
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => {
          const data = Buffer.concat(chunks);
          const status = res.statusCode ?? 0;
          resolve({
            status,
            ok: status >= 200 && status < 300,
            headers: res.headers,
            body: () => data,
            text: () => data.toString('utf8'),
            json: () => JSON.parse(data.toString('utf8')),
          });
        });
        res.on('error', reject);
        res.on('close', () => {
          if (!res.complete) reject(new Error('answer cut short'));
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Throws OutboundError when the URL is not http(s), the host is refused, or no answer comes in time. */
export async function guardedFetch(url: string, init: OutboundInit, opts: OutboundOptions): Promise<OutboundResponse> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new OutboundError('invalid URL', 'invalid-url');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new OutboundError('only http and https URLs are allowed', 'invalid-url');

  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), opts.timeoutMs);
  try {
    const addresses = await untilAborted(resolve(parsed.hostname), controller.signal);
    if (addresses.length === 0) throw new OutboundError(`${parsed.hostname} has no address`, 'network');
    // Every address is checked: a name may resolve to a public and a private one at once.
    if (!opts.allowPrivate && addresses.some((a) => isPrivateAddress(a.address)))
      throw new OutboundError(`${parsed.hostname} resolves to a private address`, 'refused');
    return await send(parsed, init, addresses[0], controller.signal, opts.maxBytes ?? DEFAULT_MAX_BYTES);
  } catch (err) {
    if (err instanceof OutboundError) throw err;
    if (controller.signal.aborted) throw new OutboundError(`no answer within ${opts.timeoutMs} ms`, 'timeout');
    const code = (err as NodeJS.ErrnoException).code;
    throw new OutboundError(`${parsed.hostname} unreachable${code ? ` (${code})` : ''}`, 'network');
  } finally {
    clearTimeout(timer);
  }
}
