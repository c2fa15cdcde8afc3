import path from 'node:path';
import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { AppError } from '../errors/app-error.js';
import type { ModuleRoutes } from '../http/types.js';
import { callerOf } from '../tenancy/guards.js';
import { companyOfKey, isPublicKey, PUBLIC_PREFIX } from './storage.js';

const types: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.mp3': 'audio/mpeg',
  '.ogg': 'audio/ogg',
  '.oga': 'audio/ogg',
  '.opus': 'audio/ogg',
  '.m4a': 'audio/mp4',
  '.wav': 'audio/wav',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.pdf': 'application/pdf',
};

/** A stored file with its stored type, `nosniff`, and inline only for images, audio and video (DOMAIN §11). */
export function sendFile(
  reply: FastifyReply,
  key: string,
  file: { stream: Readable; size: number },
  cacheControl: string,
) {
  const type = types[path.extname(key)] ?? 'application/octet-stream';
  const inline = /^(image|audio|video)\//.test(type);
  return reply
    .header('content-type', type)
    .header('content-length', file.size)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', cacheControl)
    .header('content-disposition', inline ? 'inline' : 'attachment')
    .send(file.stream);
}

const fileParams = z.object({ companyId: z.string().max(12), file: z.string().max(100) });

/**
 * Files are served only to signed-in members of the company that owns the key (DOMAIN §11): message
 * media, avatars and contacts' pictures alike; the web client fetches them with its token.
 * `/public/{companyId}/{file}` serves, to anyone, only the keys stored under the public prefix
 * (files public by design: a company's logo, help thumbnails); any other key is 404 there, whoever asks.
 */
export const mediaRoutes: ModuleRoutes = (app, deps, guards) => {
  app.get(
    '/media/:companyId/:file',
    { onRequest: guards.auth, schema: { tags: ['media'], params: fileParams } },
    async (request, reply) => {
      const key = `${request.params.companyId}/${request.params.file}`;
      if (companyOfKey(key) !== callerOf(request).companyId) throw new AppError('ERR_MEDIA_NOT_FOUND');
      const file = await deps.storage.open(key);
      if (!file) throw new AppError('ERR_MEDIA_NOT_FOUND');
      return sendFile(reply, key, file, 'private, max-age=3600');
    },
  );
  app.get('/public/:companyId/:file', { schema: { tags: ['media'], params: fileParams } }, async (request, reply) => {
    // Both parameters come decoded: `..` or an encoded slash makes a key that fails the pattern.
    const key = `${PUBLIC_PREFIX}${request.params.companyId}/${request.params.file}`;
    const file = isPublicKey(key) ? await deps.storage.open(key) : null;
    if (!file) throw new AppError('ERR_MEDIA_NOT_FOUND');
    // A key is never written twice (a new file gets a new key): caches may keep it for good.
    return sendFile(reply, key, file, 'public, max-age=31536000, immutable');
  });
};
