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
 * Security headers on every API reply, and `Cache-Control: no-store` on those that did not choose
 * their own caching (media does): replies carry tokens and company data that no cache may keep.
 * Register before the routes: hooks reach only the routes registered after them.
 */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  addHelmetHeaders(app, apiHelmet);
  app.addHook('onSend', async (_request, reply) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });
}

/**
 * Helmet's headers for `options` on every reply of `app` (and of what it registers afterwards). Our
 * options hold no per-request values (no nonces, no functions), so the headers are computed once, by
 * running helmet against a response that records them: @fastify/helmet built helmet again for every
 * request, parsing the policy each time (about 2.5% of the server's CPU in the inbound bench).
 */
export function addHelmetHeaders(app: FastifyInstance, options: HelmetOptions): void {
  const headers: Record<string, string> = {};
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
