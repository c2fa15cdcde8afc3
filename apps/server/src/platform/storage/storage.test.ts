import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalS3, startS3 } from '../../../test/fakes/s3.js';
import { s3Storage, s3StorageOf } from './s3.js';
import { companyOfKey, diskStorage, isPublicKey, keyOfMediaUrl, mediaUrlOf, type Storage } from './storage.js';

/**
 * Files live under server-generated, per-company keys; nothing outside the root is reachable
 * (DOMAIN §11). The same rules on disk and on S3-compatible storage (a local s3rver here).
 */

interface Backend {
  storage: Storage;
  /** The bytes under a path relative to the root, read around the storage; null when absent. */
  raw(rel: string): Promise<Buffer | null>;
  /** Writes a file around the storage. */
  plant(rel: string, data: string): Promise<void>;
  /** The keys stored in a company's folder. */
  keysOf(companyId: number): Promise<string[]>;
  /** A file outside the root: the one an escaping key would hit. */
  secret: string;
}

let dir: string;
let s3: LocalS3;
let disk: Backend;
let bucket: Backend;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'balcao-storage-'));
  const root = path.join(dir, 'media');
  disk = {
    storage: diskStorage(root),
    raw: (rel) => readFile(path.join(root, rel)).catch(() => null),
    async plant(rel, data) {
      await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
      await writeFile(path.join(root, rel), data);
    },
    keysOf: async (companyId) =>
      (await readdir(path.join(root, String(companyId))).catch(() => [])).map((name) => `${companyId}/${name}`),
    secret: '../secret.txt',
  };
  s3 = await startS3();
  const client = new S3Client({
    endpoint: s3.options.endpoint,
    region: s3.options.region,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.options.accessKeyId, secretAccessKey: s3.options.secretAccessKey },
  });
  const Bucket = s3.options.bucket;
  bucket = {
    storage: s3Storage(s3.options),
    async raw(rel) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket, Key: rel }));
        return Buffer.from((await object.Body?.transformToByteArray()) ?? []);
      } catch {
        return null;
      }
    },
    plant: async (rel, data) => void (await client.send(new PutObjectCommand({ Bucket, Key: rel, Body: data }))),
    keysOf: async (companyId) =>
      ((await client.send(new ListObjectsV2Command({ Bucket, Prefix: `${companyId}/` }))).Contents ?? []).map(
        (o) => o.Key as string,
      ),
    // Outside every company's folder, where a key with `..` would land once normalised.
    secret: 'secret.txt',
  };
  // Files an escaping key would hit.
  for (const b of [disk, bucket]) {
    await b.plant(b.secret, 'do not touch');
    await b.plant('7/legacy.png', 'not a generated key');
  }
});
afterAll(async () => {
  await s3?.close();
  await rm(dir, { recursive: true, force: true });
});

const read = async (stream: Readable) => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

describe.each(['disk', 'S3'])('%s storage', (kind) => {
  let b: Backend;
  let storage: Storage;
  beforeAll(() => {
    b = kind === 'disk' ? disk : bucket;
    storage = b.storage;
  });

  it('writes a stream as it arrives, and leaves nothing behind when the stream breaks', async () => {
    const chunks = [Buffer.alloc(64 * 1024, 1), Buffer.alloc(64 * 1024, 2), Buffer.from('end')];
    const stored = await storage.put(8, Readable.from(chunks), 'documento.pdf');
    expect(stored.size).toBe(64 * 1024 * 2 + 3);
    expect(await b.raw(stored.key)).toEqual(Buffer.concat(chunks));

    const broken = new Readable({ read() {} });
    const writing = storage.put(8, broken, 'cortado.pdf');
    broken.push(Buffer.alloc(1024, 3));
    broken.destroy(new Error('connection reset'));
    await expect(writing).rejects.toThrow('connection reset');
    expect(await b.keysOf(8)).toEqual([stored.key]);
  });

  it('generates the key: company folder, random name, the lower-cased extension only', async () => {
    const data = Buffer.from('image bytes');
    const stored = await storage.put(7, data, 'Foto da Loja.PNG');
    expect(stored.key).toMatch(new RegExp(`^7/${UUID}\\.png$`));
    expect(stored.size).toBe(data.length);
    expect(await b.raw(stored.key)).toEqual(data);

    const again = await storage.put(7, data, 'Foto da Loja.PNG');
    expect(again.key).not.toBe(stored.key);
  });

  it('never uses the client’s name as a path', async () => {
    for (const name of [
      '../../secret.txt',
      '/etc/passwd',
      '..\\..\\x.exe',
      'a/b/c.jpg',
      'file.tar.gz',
      '.htaccess',
      'sem extensão',
      'x.p%2Fhp',
      'x.verylongextension',
    ]) {
      const { key } = await storage.put(3, Buffer.from(name), name);
      expect(key, name).toMatch(new RegExp(`^3/${UUID}(\\.[a-z0-9]{1,10})?$`));
      expect(companyOfKey(key)).toBe(3);
      expect(path.posix.resolve('/root', key).startsWith('/root/3/')).toBe(true);
    }
    expect((await storage.put(3, Buffer.from('x'), 'file.tar.gz')).key).toMatch(/\.gz$/);
    expect((await storage.put(3, Buffer.from('x'), 'a/b/c.jpg')).key).toMatch(/\.jpg$/);
    expect((await b.raw(b.secret))?.toString()).toBe('do not touch');
  });

  it('opens what it stored, with its size', async () => {
    const { key } = await storage.put(9, Buffer.from('hello'), 'hello.txt');
    const file = await storage.open(key);
    expect(file?.size).toBe(5);
    expect((await read(file?.stream as Readable)).toString()).toBe('hello');
    expect(await storage.open(`9/${'0'.repeat(8)}-0000-0000-0000-${'0'.repeat(12)}.txt`)).toBeNull();
  });

  it('refuses keys that leave the root or were not generated by it', async () => {
    const { key } = await storage.put(7, Buffer.from('keep'), 'keep.png');
    const escaping = [
      '../secret.txt',
      'secret.txt',
      '7/../../secret.txt',
      `7/../${key}`,
      `7/${path.basename(key)}/../../../secret.txt`,
      path.join(dir, 'secret.txt'),
      '/etc/passwd',
      '7/legacy.png',
      '7\\..\\..\\secret.txt',
      `./${key}`,
      `${key}\0.png`,
      '',
    ];
    for (const bad of escaping) {
      expect(await storage.open(bad), bad).toBeNull();
      await storage.remove(bad);
    }
    expect((await b.raw(b.secret))?.toString()).toBe('do not touch');
    expect(await b.raw('7/legacy.png')).not.toBeNull();
    expect(await b.raw(key)).not.toBeNull();
  });

  it('removes a stored file, and removing it twice is harmless', async () => {
    const { key } = await storage.put(7, Buffer.from('bye'), 'bye.png');
    await storage.remove(key);
    expect(await b.raw(key)).toBeNull();
    expect(await storage.open(key)).toBeNull();
    await expect(storage.remove(key)).resolves.toBeUndefined();
  });

  it('puts files that are public by design under their own prefix, and only those', async () => {
    const logo = await storage.put(4, Buffer.from('logo'), 'logo.png', { public: true });
    expect(logo.key).toMatch(new RegExp(`^public/4/${UUID}\\.png$`));
    expect([isPublicKey(logo.key), companyOfKey(logo.key)]).toEqual([true, 4]);
    expect((await read((await storage.open(logo.key))?.stream as Readable)).toString()).toBe('logo');
    const media = await storage.put(4, Buffer.from('private'), 'photo.png');
    expect(isPublicKey(media.key)).toBe(false);
    expect(await b.keysOf(4)).toEqual([media.key]);
    for (const key of [`public/../${media.key}`, `public/${media.key}/..`, 'public/', `public/public/${media.key}`])
      expect(isPublicKey(key), key).toBe(false);
  });
});

describe('S3 storage', () => {
  it('sends a stream longer than a part in parts, and a stream cut between parts leaves no object', async () => {
    const storage = s3Storage({ ...s3.options, partSize: 64 * 1024 });
    const chunks = [Buffer.alloc(50 * 1024, 1), Buffer.alloc(50 * 1024, 2), Buffer.alloc(50 * 1024, 3)];
    const stored = await storage.put(11, Readable.from([...chunks, Buffer.from('end')]), 'long.bin');
    const whole = Buffer.concat([...chunks, Buffer.from('end')]);
    expect(stored.size).toBe(whole.length);
    const file = await storage.open(stored.key);
    expect(file?.size).toBe(whole.length);
    expect(await read(file?.stream as Readable)).toEqual(whole);

    const broken = new Readable({ read() {} });
    const writing = storage.put(11, broken, 'cut.bin');
    broken.push(Buffer.alloc(100 * 1024, 4));
    // The first part goes up before the connection drops.
    await new Promise((r) => setTimeout(r, 300));
    broken.destroy(new Error('connection reset'));
    await expect(writing).rejects.toThrow('connection reset');
    expect(await bucket.keysOf(11)).toEqual([stored.key]);
  });

  it('a missing bucket is an error, not a missing file', async () => {
    const storage = s3Storage({ ...s3.options, bucket: 'no-such-bucket' });
    await expect(storage.open(`1/${'0'.repeat(8)}-0000-0000-0000-${'0'.repeat(12)}.txt`)).rejects.toThrow();
  });

  it('is chosen when every S3_* variable is set, and only then', () => {
    expect(s3StorageOf(s3.env)).not.toBeNull();
    for (const name of Object.keys(s3.env)) expect(s3StorageOf({ ...s3.env, [name]: undefined }), name).toBeNull();
  });
});

describe('companyOfKey', () => {
  const id = '0f8fad5b-d9cb-469f-a165-70867728950e';
  it('reads the company of a generated key', () => {
    expect(companyOfKey(`12/${id}.png`)).toBe(12);
    expect(companyOfKey(`12/${id}`)).toBe(12);
  });
  it('rejects anything else', () => {
    for (const key of [
      `abc/${id}.png`,
      `-1/${id}.png`,
      `12/${id}.png/..`,
      `12/../13/${id}.png`,
      `/12/${id}.png`,
      `12/${id}.PNG`,
      `12/${id}.toolongextension`,
      `12/evil.png`,
      `12/${id}.png\n`,
      `12//${id}.png`,
      '',
    ]) {
      expect(companyOfKey(key), JSON.stringify(key)).toBeNull();
    }
  });
});

describe('media URLs', () => {
  it('reads the key behind a media URL it gave out, and nothing else', () => {
    const key = '12/0f8fad5b-d9cb-469f-a165-70867728950e.jpg';
    expect(keyOfMediaUrl(mediaUrlOf(key))).toBe(key);
    for (const url of [null, '', 'https://pps.whatsapp.net/v/t61/x.jpg', `/public/${key}`, '/media/../etc/passwd'])
      expect(keyOfMediaUrl(url), String(url)).toBeNull();
  });
});
