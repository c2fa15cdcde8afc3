import { decryptSecret, encryptSecret, isEncrypted } from '../../platform/secrets.js';

/** The Cloud API settings that are secrets: stored encrypted in `providerConfig`, never returned. */
export const CLOUD_SECRETS = ['accessToken', 'appSecret'] as const;

/**
 * The `providerConfig` to store for a connection: Cloud API secrets encrypted (values already
 * encrypted are kept as they are). Other providers' settings are stored unchanged. On update,
 * `current` is the stored config: settings not sent again are kept.
 */
export function sealProviderConfig(
  key: Buffer,
  provider: string,
  input: Record<string, string>,
  current: Record<string, unknown> = {},
): Record<string, unknown> {
  if (provider !== 'cloud') return input;
  const out: Record<string, unknown> = { ...current, ...input };
  for (const name of CLOUD_SECRETS) {
    const v = input[name];
    if (typeof v === 'string' && v !== '' && !isEncrypted(v)) out[name] = encryptSecret(key, v);
  }
  return out;
}

export interface CloudConfig {
  phoneNumberId: string;
  accessToken: string;
  appSecret: string;
  verifyToken: string;
}

/** The clear Cloud API settings of a connection, or null when incomplete or undecryptable. */
export function openCloudConfig(key: Buffer, stored: Record<string, unknown>): CloudConfig | null {
  const str = (name: string) => (typeof stored[name] === 'string' ? (stored[name] as string) : '');
  try {
    const config = {
      phoneNumberId: str('phoneNumberId'),
      verifyToken: str('verifyToken'),
      accessToken: isEncrypted(stored.accessToken) ? decryptSecret(key, stored.accessToken) : '',
      appSecret: isEncrypted(stored.appSecret) ? decryptSecret(key, stored.appSecret) : '',
    };
    return config.phoneNumberId && config.accessToken ? config : null;
  } catch {
    return null;
  }
}
