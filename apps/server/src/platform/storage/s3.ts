import { Readable } from 'node:stream';
import type { CompletedPart, S3Client } from '@aws-sdk/client-s3';
import type { Config } from '../../config.js';
import { companyOfKey, newKey, type Storage } from './storage.js';

export interface S3Options {
  /** The S3-compatible service's URL (MinIO, R2, a local s3rver...); AWS's own works too. */
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  /** `https://endpoint/bucket/key` instead of `https://bucket.endpoint/key`: what most S3-compatible services want. */
  forcePathStyle?: boolean;
  /**
   * A stream is sent in parts of this size, so no more than one part sits in memory; S3 wants
   * at least 5 MiB for every part but the last. A stream shorter than one part is one PUT.
   */
  partSize?: number;
}

const MiB = 1024 * 1024;

const notFound = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  // A missing bucket is a misconfiguration, not a missing file.
  return e?.name !== 'NoSuchBucket' && (e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404);
};

/**
 * The same keys, public prefix and streaming as `diskStorage`, on an S3-compatible bucket: what
 * more than one instance share. Malformed keys are refused before any request, as on disk.
 */
export function s3Storage(opts: S3Options): Storage {
  const Bucket = opts.bucket;
  const partSize = opts.partSize ?? 8 * MiB;
  // The SDK takes half a second to load: only a server that uses S3 pays for it, on first use.
  let loading: Promise<{ sdk: typeof import('@aws-sdk/client-s3'); client: S3Client }> | undefined;
  const s3 = () =>
    (loading ??= import('@aws-sdk/client-s3').then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        endpoint: opts.endpoint,
        region: opts.region,
        forcePathStyle: opts.forcePathStyle ?? true,
        credentials: { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey },
        // Checksums only where S3 requires them: the default (trailing checksums on streamed bodies,
        // checksum headers on every put) is more than many S3-compatible services understand.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      }),
    })));
  const putObject = async (Key: string, body: Buffer) => {
    const { sdk, client } = await s3();
    await client.send(new sdk.PutObjectCommand({ Bucket, Key, Body: body, ContentLength: body.length }));
  };

  return {
    async put(companyId, data, fileName, opts) {
      const Key = newKey(companyId, fileName, opts);
      if (Buffer.isBuffer(data)) {
        await putObject(Key, data);
        return { key: Key, size: data.length };
      }
      // As on disk: a download that fails before it is read must not crash the process.
      data.on('error', () => {});
      const { sdk, client } = await s3();
      let size = 0;
      let pending: Buffer[] = [];
      let pendingSize = 0;
      let UploadId: string | undefined;
      const parts: CompletedPart[] = [];
      const sendPart = async (body: Buffer) => {
        if (!UploadId) {
          UploadId = (await client.send(new sdk.CreateMultipartUploadCommand({ Bucket, Key }))).UploadId;
          if (!UploadId) throw new Error('S3 returned no upload id');
        }
        const PartNumber = parts.length + 1;
        const { ETag } = await client.send(
          new sdk.UploadPartCommand({ Bucket, Key, UploadId, PartNumber, Body: body, ContentLength: body.length }),
        );
        parts.push({ ETag, PartNumber });
      };
      try {
        // Reading waits while a part is sent: the source is paused, not buffered.
        for await (const chunk of data) {
          const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
          pending.push(buf);
          pendingSize += buf.length;
          size += buf.length;
          if (pendingSize >= partSize) {
            const body = Buffer.concat(pending, pendingSize);
            pending = [];
            pendingSize = 0;
            await sendPart(body);
          }
        }
        const rest = Buffer.concat(pending, pendingSize);
        if (!UploadId) {
          await putObject(Key, rest);
          return { key: Key, size };
        }
        if (rest.length > 0) await sendPart(rest);
        await client.send(
          new sdk.CompleteMultipartUploadCommand({ Bucket, Key, UploadId, MultipartUpload: { Parts: parts } }),
        );
        return { key: Key, size };
      } catch (err) {
        // A stream cut halfway leaves no object behind (and, where the service allows, no parts).
        if (UploadId) await client.send(new sdk.AbortMultipartUploadCommand({ Bucket, Key, UploadId })).catch(() => {});
        throw err;
      }
    },
    async open(key) {
      if (companyOfKey(key) === null) return null;
      const { sdk, client } = await s3();
      try {
        const object = await client.send(new sdk.GetObjectCommand({ Bucket, Key: key }));
        const body = object.Body;
        if (!(body instanceof Readable)) throw new Error('S3 returned no stream');
        return { stream: body, size: object.ContentLength ?? 0 };
      } catch (err) {
        if (notFound(err)) return null;
        throw err;
      }
    },
    async remove(key) {
      if (companyOfKey(key) === null) return;
      const { sdk, client } = await s3();
      try {
        await client.send(new sdk.DeleteObjectCommand({ Bucket, Key: key }));
      } catch (err) {
        if (!notFound(err)) throw err;
      }
    },
  };
}

/** S3 when every `S3_*` variable is set, else null (the caller keeps the disk). */
export function s3StorageOf(
  config: Pick<Config, 'S3_ENDPOINT' | 'S3_BUCKET' | 'S3_ACCESS_KEY_ID' | 'S3_SECRET_ACCESS_KEY' | 'S3_REGION'>,
): Storage | null {
  const { S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_REGION } = config;
  if (!S3_ENDPOINT || !S3_BUCKET || !S3_ACCESS_KEY_ID || !S3_SECRET_ACCESS_KEY || !S3_REGION) return null;
  return s3Storage({
    endpoint: S3_ENDPOINT,
    bucket: S3_BUCKET,
    accessKeyId: S3_ACCESS_KEY_ID,
    secretAccessKey: S3_SECRET_ACCESS_KEY,
    region: S3_REGION,
  });
}
