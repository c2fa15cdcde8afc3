import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance } from 'fastify';
import { lazyCompilers } from './lazy-compilers.js';
import { addHelmetHeaders, commonHelmet } from './security-headers.js';

/**
 * What the built client needs and no more: its own scripts (with `/env.js`) and the audio worklet
 * it builds as a blob; MUI's injected styles; the API and its Socket.IO websocket; media previews
 * from blobs and data URLs; contacts' WhatsApp pictures and help-video thumbnails (https); the
 * help videos' privacy-enhanced YouTube player as the only frame; never framed itself.
 */
function clientCsp(backendUrl: string): Record<string, string[]> {
  const api = new URL(backendUrl).origin;
  const socket = api.replace(/^http/, 'ws');
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", 'blob:'],
    workerSrc: ["'self'", 'blob:'],
    styleSrc: ["'self'", "'unsafe-inline'"],
    connectSrc: ["'self'", api, socket],
    imgSrc: ["'self'", 'data:', 'blob:', 'https:', api],
    mediaSrc: ["'self'", 'data:', 'blob:', api],
    fontSrc: ["'self'", 'data:'],
    frameSrc: ['https://www.youtube-nocookie.com'],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  };
}

/** Hashed file names (Vite's `assets/`): a new build gets new names, so these never change. */
const ASSETS_DIR = 'assets';

/**
 * Caching by what a file is: hashed assets forever; everything else (index.html, the public files)
 * revalidated on every use, so that a new release is picked up at once.
 */
function cacheControl(distDir: string, filePath: string): string {
  const [top] = path.relative(distDir, filePath).split(path.sep);
  return top === ASSETS_DIR ? 'public, max-age=31536000, immutable' : 'no-cache';
}

/**
 * Serves the built web client on its own port, with `/env.js` telling it where the API is: the
 * `.br` or `.gz` sibling the build wrote when the browser accepts it. Unknown paths
 * fall back to index.html so that client-side routes survive a reload; unknown files (an asset of
 * an older build) are a 404, not the page.
 */
export async function buildWebHost(opts: { distDir: string; backendUrl: string }): Promise<FastifyInstance> {
  if (!existsSync(path.join(opts.distDir, 'index.html'))) {
    throw new Error(`Web client not built: ${opts.distDir}/index.html is missing (run npm run build)`);
  }
  const web = Fastify({ logger: false, schemaController: { compilersFactory: lazyCompilers } });
  addHelmetHeaders(web, {
    ...commonHelmet,
    contentSecurityPolicy: { useDefaults: false, directives: clientCsp(opts.backendUrl) },
  });
  const envScript = `window.__ENV__ = ${JSON.stringify({ BACKEND_URL: opts.backendUrl })};`;
  web.get('/env.js', (_request, reply) =>
    reply.type('application/javascript').header('cache-control', 'no-store').send(envScript),
  );
  await web.register(fastifyStatic, {
    root: opts.distDir,
    wildcard: false,
    preCompressed: true,
    // The compressed siblings are chosen by Accept-Encoding, not routes of their own.
    globIgnore: ['**/*.br', '**/*.gz'],
    cacheControl: false,
    setHeaders: (reply, filePath) => reply.header('cache-control', cacheControl(opts.distDir, filePath)),
  });
  web.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0];
    const isFile = path.extname(pathname) !== '' || pathname.startsWith(`/${ASSETS_DIR}/`);
    if (request.method !== 'GET' || isFile) return reply.status(404).send('Not found');
    return reply.sendFile('index.html');
  });
  return web;
}
