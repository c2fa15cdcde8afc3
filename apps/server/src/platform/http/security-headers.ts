import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/**
 * What both servers (API and web client) send besides their own Content-Security-Policy (DOMAIN §11):
 * nosniff (helmet's default), no framing, and no Referer, so that ticket uuids in the client's
 * paths never reach the sites whose images it shows.
 */
export const commonHelmet = {
  frameguard: { action: 'deny' },
  referrerPolicy: { policy: 'no-referrer' },
} satisfies FastifyHelmetOptions;

/**
 * The API answers JSON and files, never pages to run: a file opened directly (an uploaded SVG, say)
 * may load, run and frame nothing. Resources may be embedded cross-origin because the web client
 * lives on another origin and shows the API's `/public` files (a company's logo) in `<img>`; avatars and
 * contacts' pictures are private media it fetches with its token and shows as blob URLs.
 */
const apiHelmet: FastifyHelmetOptions = {
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
  await app.register(helmet, apiHelmet);
  app.addHook('onSend', async (_request, reply) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });
}
