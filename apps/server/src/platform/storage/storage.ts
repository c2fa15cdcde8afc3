import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface StoredFile {
  key: string;
  size: number;
}

/**
 * Files of a company under keys the server generates (`<companyId>/<uuid><ext>`): a client's
 * file name is kept as metadata only, never used as a path.
 */
export interface Storage {
  /** A stream is written as it arrives (a large received document never sits in memory). */
  put(companyId: number, data: Buffer | Readable, fileName: string): Promise<StoredFile>;
  open(key: string): Promise<{ stream: Readable; size: number } | null>;
  remove(key: string): Promise<void>;
}

const KEY = /^(\d+)\/[0-9a-f-]{36}(\.[a-z0-9]{1,10})?$/;

/** The company a key belongs to, or null for a malformed key. */
export function companyOfKey(key: string): number | null {
  const m = KEY.exec(key);
  return m ? Number(m[1]) : null;
}

function extensionOf(fileName: string): string {
  const ext = path.extname(fileName).toLowerCase();
  return /^\.[a-z0-9]{1,10}$/.test(ext) ? ext : '';
}

export function diskStorage(root: string): Storage {
  const resolve = (key: string) => {
    if (companyOfKey(key) === null) return null;
    return path.join(root, key);
  };
  return {
    async put(companyId, data, fileName) {
      // A download can fail while the folder is being made: without a listener by then, its error
      // would crash the process. The pipeline below still sees the stream as failed.
      if (!Buffer.isBuffer(data)) data.on('error', () => {});
      const key = `${companyId}/${randomUUID()}${extensionOf(fileName)}`;
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
      try {
        const { size } = await stat(file);
        return { stream: createReadStream(file), size };
      } catch {
        return null;
      }
    },
    async remove(key) {
      const file = resolve(key);
      if (file) await rm(file, { force: true });
    },
  };
}
