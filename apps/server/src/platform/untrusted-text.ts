import path from 'node:path';

/**
 * Text from outside made fit for PostgreSQL: `text` and `jsonb` cannot hold NUL (U+0000), and file
 * metadata lives in bounded columns (`media_name` 255, `media_mime` 120 characters).
 */

const FILE_NAME_MAX = 255;
const MIMETYPE_MAX = 120;

const isPlainObject = (v: unknown): v is Record<string, unknown> => {
  if (typeof v !== 'object' || v === null) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

/**
 * Whether a parsed request value carries NUL in any string or key. Any object is walked (a parsed
 * query has a prototype of its own), except raw bytes. Iterative: a body may nest deeply.
 */
export function containsNul(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length) {
    const v = pending.pop();
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return true;
    } else if (Array.isArray(v)) {
      for (const item of v) pending.push(item);
    } else if (typeof v === 'object' && v !== null && !ArrayBuffer.isView(v)) {
      for (const [key, item] of Object.entries(v)) {
        if (key.includes('\u0000')) return true;
        pending.push(item);
      }
    }
  }
  return false;
}

/**
 * The value with NUL removed from its strings; buffers, dates and functions are kept as they are.
 * A value without NUL (nearly every one) is returned as it is, not copied.
 */
export function withoutNul<T>(value: T): T {
  return containsNul(value) ? stripNul(value) : value;
}

function stripNul<T>(value: T): T {
  if (typeof value === 'string') return value.replaceAll('\u0000', '') as T;
  if (Array.isArray(value)) return value.map(stripNul) as T;
  if (isPlainObject(value))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [stripNul(k), stripNul(v)])) as T;
  return value;
}

/** A client's file name kept as metadata: at most 255 characters, its extension kept. */
export function fileNameOf(name: string | undefined): string {
  const chars = [...(name || 'file')];
  if (chars.length <= FILE_NAME_MAX) return chars.join('');
  const ext = [...path.extname(name as string)];
  const kept = ext.length <= 16 ? ext : [];
  return [...chars.slice(0, FILE_NAME_MAX - kept.length), ...kept].join('');
}

/** A declared MIME type, or the generic one when it is missing or too long to be real. */
export function mimetypeOf(mimetype: string | undefined): string {
  return mimetype && mimetype.length <= MIMETYPE_MAX ? mimetype : 'application/octet-stream';
}
