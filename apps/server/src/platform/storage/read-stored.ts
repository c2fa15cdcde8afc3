import { AppError } from '../errors/app-error.js';
import type { Storage } from './storage.js';

/** A stored file's bytes, to send it; ERR_MEDIA_NOT_FOUND when it is gone. */
export async function readStored(storage: Storage, key: string): Promise<Buffer> {
  const file = await storage.open(key);
  if (!file) throw new AppError('ERR_MEDIA_NOT_FOUND');
  const chunks: Buffer[] = [];
  for await (const chunk of file.stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
