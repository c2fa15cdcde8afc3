import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { type FileHandle, mkdir, open, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface StoredFile {
  key: string;
  size: number;
}

/**
 * Files of a company under keys the server generates (`<companyId>/<uuid><ext>`): a client's
 * file name is kept as metadata only, never used as a path. Files that are public by design
 * (a company's logo, help thumbnails) are put under `public/<companyId>/<uuid><ext>`: the prefix is
 * what `/public/{path}` serves, so no other key can be reached there, and an S3 bucket policy can
 * open that prefix alone.
 */
export interface Storage {
  /** A stream is written as it arrives (a large received document never sits in memory). */
  put(companyId: number, data: Buffer | Readable, fileName: string, opts?: { public?: boolean }): Promise<StoredFile>;
  open(key: string): Promise<{ stream: Readable; size: number } | null>;
  remove(key: string): Promise<void>;
}

const KEY = /^(public\/)?(\d+)\/[0-9a-f-]{36}(\.[a-z0-9]{1,10})?$/;
export const PUBLIC_PREFIX = 'public/';

/** The company a key belongs to, or null for a malformed key. */
export function companyOfKey(key: string): number | null {
  const m = KEY.exec(key);
  return m ? Number(m[2]) : null;
}

export const isPublicKey = (key: string) => key.startsWith(PUBLIC_PREFIX) && companyOfKey(key) !== null;

/** The URL under which the API serves a private key to the members of its company. */
export const mediaUrlOf = (key: string) => `/media/${key}`;

/** The key behind a `/media/{key}` URL this server gave out, or null for anything else (an external URL). */
export function keyOfMediaUrl(url: string | null | undefined): string | null {
  const key = url?.startsWith('/media/') ? url.slice('/media/'.length) : '';
  return companyOfKey(key) === null ? null : key;
}

function extensionOf(fileName: string): string {
  const ext = path.extname(fileName).toLowerCase();
  return /^\.[a-z0-9]{1,10}$/.test(ext) ? ext : '';
}

/** A new key for a company's file: the client's name lends its extension only. Disk and S3 alike. */
export function newKey(companyId: number, fileName: string, opts?: { public?: boolean }): string {
  return `${opts?.public ? PUBLIC_PREFIX : ''}${companyId}/${randomUUID()}${extensionOf(fileName)}`;
}

export function diskStorage(root: string): Storage {
  const resolve = (key: string) => {
    if (companyOfKey(key) === null) return null;
    return path.join(root, key);
  };
  return {
    async put(companyId, data, fileName, opts) {
      // A download can fail while the folder is being made: without a listener by then, its error
      // would crash the process. The pipeline below still sees the stream as failed.
      if (!Buffer.isBuffer(data)) data.on('error', () => {});
      const key = newKey(companyId, fileName, opts);
      const file = path.join(root, key);
      await mkdir(path.dirname(file), { recursive: true });
      if (Buffer.isBuffer(data)) {
        await writeFile(file, data, { mode: 0o640 });
        return { key, size: data.length };
      }
      let size = 0;
      const count = new Transform({
        transform(chunk: Buffer, _enc, done) {
          size += chunk.length;
          done(null, chunk);
        },
      });
      try {
        await pipeline(data, count, createWriteStream(file, { mode: 0o640 }));
      } catch (err) {
        // A download cut halfway leaves no partial file behind.
        await rm(file, { force: true });
        throw err;
      }
      return { key, size };
    },
    async open(key) {
      const file = resolve(key);
      if (!file) return null;
      let handle: FileHandle | undefined;
      try {
        // Opened before it is read: a file removed meanwhile (a replaced avatar) is still read whole.
        handle = await open(file, 'r');
        const stats = await handle.stat();
        if (!stats.isFile()) throw new Error('not a file');
        return { stream: handle.createReadStream(), size: stats.size };
      } catch {
        await handle?.close();
        return null;
      }
    },
    async remove(key) {
      const file = resolve(key);
      if (file) await rm(file, { force: true });
    },
  };
}
