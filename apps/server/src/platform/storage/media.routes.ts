import path from 'node:path';
import { z } from 'zod';
import { AppError } from '../errors/app-error.js';
import type { ModuleRoutes } from '../http/types.js';
import { callerOf } from '../tenancy/guards.js';
import { companyOfKey } from './storage.js';

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

/** Files are served only to signed-in members of the company that owns the key (DOMAIN §11). */
export const mediaRoutes: ModuleRoutes = (app, deps, guards) => {
  app.get(
    '/media/:companyId/:file',
    {
      onRequest: guards.auth,
      schema: { tags: ['media'], params: z.object({ companyId: z.string(), file: z.string().max(100) }) },
    },
    async (request, reply) => {
      const key = `${request.params.companyId}/${request.params.file}`;
      if (companyOfKey(key) !== callerOf(request).companyId) throw new AppError('ERR_MEDIA_NOT_FOUND');
      const file = await deps.storage.open(key);
      if (!file) throw new AppError('ERR_MEDIA_NOT_FOUND');
      const type = types[path.extname(key)] ?? 'application/octet-stream';
      const inline = /^(image|audio|video)\//.test(type);
      return reply
        .header('content-type', type)
        .header('content-length', file.size)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, max-age=3600')
        .header('content-disposition', inline ? 'inline' : 'attachment')
        .send(file.stream);
    },
  );
};
