import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * What both servers (API and web client) send besides their own Content-Security-Policy (DOMAIN §11):
 * nosniff (helmet's default), no framing, and no Referer, so that ticket uuids in the client's
 * paths never reach the sites whose images it shows.
 */
export const commonHelmet = {
  frameguard: { action: 'deny' },
  referrerPolicy: { policy: 'no-referrer' },
} satisfies HelmetOptions;

/**
 * The API answers JSON and files, never pages to run: a file opened directly (an uploaded SVG, say)
 * may load, run and frame nothing. Resources may be embedded cross-origin because the web client
 * lives on another origin and shows the API's `/public` files (a company's logo) in `<img>`; avatars and
 * contacts' pictures are private media it fetches with its token and shows as blob URLs.
 */
const apiHelmet: HelmetOptions = {
  ...commonHelmet,
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'none'"],
      baseUri: ["'none'"],
      formAction: ["'none'"],
      frameAncestors: ["'none'"],
    },
  },
  crossOriginResourcePolicy: { policy: 'cross-origin' },
};

/**
 * The API documentation page (/api-docs) is the one page the API serves: Swagger UI's own policy
 * (scripts and styles of its bundle), less `upgrade-insecure-requests`, which would break it on the
 * plain-HTTP installs of a local network.
 */
export const apiDocsCsp = {
  staticCSP: true,
  transformStaticCSP: (header: string) => header.replace(/\s*upgrade-insecure-requests;?/, ''),
};

/**
 * Security headers on every API reply, and `Cache-Control: no-store` unless the reply chooses its
 * own caching (media do, replacing it): replies carry tokens and company data that no cache may keep.
 * Register before the routes: hooks reach only the routes registered after them.
 */
export function registerSecurityHeaders(app: FastifyInstance): void {
  addHelmetHeaders(app, apiHelmet, { 'cache-control': 'no-store' });
}

/**
 * Helmet's headers for `options`, and `defaults` that a reply may replace, on every reply of `app`
 * (and of what it registers afterwards), set as the request comes in. Our options hold no
 * per-request values (no nonces, no functions), so the headers are computed once, by running helmet
 * against a response that records them: @fastify/helmet built helmet again for every request,
 * parsing the policy each time (about 2.5% of the server's CPU in the inbound bench).
 */
export function addHelmetHeaders(
  app: FastifyInstance,
  options: HelmetOptions,
  defaults: Record<string, string> = {},
): void {
  const headers: Record<string, string> = { ...defaults };
  const recorder = {
    setHeader: (name: string, value: unknown) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: () => undefined,
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
  });
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}
