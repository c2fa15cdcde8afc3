import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance } from 'fastify';

/**
 * Serves the built web client on its own port, with `/env.js` telling it where the API is.
 * Unknown paths fall back to index.html so that client-side routes survive a reload.
 */
export async function buildWebHost(opts: { distDir: string; backendUrl: string }): Promise<FastifyInstance> {
  if (!existsSync(path.join(opts.distDir, 'index.html'))) {
    throw new Error(`Web client not built: ${opts.distDir}/index.html is missing (run npm run build)`);
  }
  const web = Fastify({ logger: false });
  const envScript = `window.__ENV__ = ${JSON.stringify({ BACKEND_URL: opts.backendUrl })};`;
  web.get('/env.js', (_request, reply) =>
    reply.type('application/javascript').header('cache-control', 'no-store').send(envScript),
  );
  await web.register(fastifyStatic, { root: opts.distDir, wildcard: false });
  web.setNotFoundHandler((request, reply) => {
    if (request.method !== 'GET' || path.extname(request.url.split('?')[0])) return reply.status(404).send('Not found');
    return reply.sendFile('index.html');
  });
  return web;
}
