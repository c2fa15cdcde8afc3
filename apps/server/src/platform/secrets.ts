import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const PREFIX = 'enc:v1:';

/**
 * The 32-byte AES key: SHA-256 of ENCRYPTION_KEY, or (embedded mode only; production requires the
 * variable, see config) a random key generated once and kept under DATA_DIR, like the JWT secrets.
 */
export function resolveEncryptionKey(opts: { encryptionKey?: string; dataDir: string }): Buffer {
  if (opts.encryptionKey) return createHash('sha256').update(opts.encryptionKey).digest();
  const file = path.resolve(opts.dataDir, 'encryption.key');
  let stored: string;
  if (existsSync(file)) {
    stored = readFileSync(file, 'utf8').trim();
  } else {
    mkdirSync(path.dirname(file), { recursive: true });
    stored = randomBytes(48).toString('base64url');
    writeFileSync(file, stored, { mode: 0o600 });
  }
  return createHash('sha256').update(stored).digest();
}

/** AES-256-GCM: `enc:v1:<iv>:<tag>:<ciphertext>`, base64url parts. */
export function encryptSecret(key: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return `${PREFIX}${[iv, cipher.getAuthTag(), data].map((b) => b.toString('base64url')).join(':')}`;
}

export function isEncrypted(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(PREFIX);
}

/** The clear value; throws when the key is wrong or the value was tampered with. */
export function decryptSecret(key: Buffer, value: string): string {
  if (!isEncrypted(value)) throw new Error('not an encrypted value');
  const [iv, tag, data] = value
    .slice(PREFIX.length)
    .split(':')
    .map((p) => Buffer.from(p, 'base64url'));
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
}

const keys = new WeakMap<object, Buffer>();

/** The encryption key of a server's configuration, resolved once per configuration. */
export function encryptionKeyOf(config: { ENCRYPTION_KEY?: string; DATA_DIR: string }): Buffer {
  let key = keys.get(config);
  if (!key) {
    key = resolveEncryptionKey({ encryptionKey: config.ENCRYPTION_KEY, dataDir: config.DATA_DIR });
    keys.set(config, key);
  }
  return key;
}
