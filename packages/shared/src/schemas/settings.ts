import { z } from 'zod';

/**
 * One company setting. A write-only credential (`encryptedSettingKeys`) never carries its value:
 * it comes as `{key, value: '', isSet}`, plus `last4` (the value's last four characters, only for
 * values of 12 characters or more) in `GET /settings` and the `PUT` reply; the session's copy and
 * the live event carry no `last4`. Plain settings are `{key, value}`.
 */
export const settingSchema = z.object({
  key: z.string(),
  value: z.string(),
  isSet: z.boolean().optional(),
  last4: z.string().optional(),
});
export type Setting = z.infer<typeof settingSchema>;

const enabled = z.enum(['enabled', 'disabled']);

/**
 * The company settings the server knows, each with its allowed values and default.
 * Unknown keys are refused so that a typo never silently creates a setting.
 */
export const settingValues = {
  userRating: enabled,
  scheduleType: z.enum(['disabled', 'company', 'queue']),
  call: enabled,
  CheckMsgIsGroup: enabled,
  sendGreetingAccepted: enabled,
  sendMsgTransfTicket: enabled,
  chatBotType: z.enum(['text']),
  userCreation: enabled,
  /** Beyond the spec: ask before resolving a ticket. */
  closeConfirmation: enabled,
  campaignsEnabled: z.enum(['true', 'false']),
  timezone: z.string().min(1).max(64),
  ipixc: z.string().max(500),
  tokenixc: z.string().max(500),
  ipmkauth: z.string().max(500),
  clientidmkauth: z.string().max(500),
  clientsecretmkauth: z.string().max(500),
  asaas: z.string().max(500),
} as const;
export type SettingKey = keyof typeof settingValues;

export const settingDefaults: Record<SettingKey, string> = {
  userRating: 'disabled',
  scheduleType: 'disabled',
  call: 'enabled',
  CheckMsgIsGroup: 'enabled',
  sendGreetingAccepted: 'disabled',
  sendMsgTransfTicket: 'disabled',
  chatBotType: 'text',
  userCreation: 'disabled',
  closeConfirmation: 'disabled',
  campaignsEnabled: 'false',
  timezone: 'America/Sao_Paulo',
  ipixc: '',
  tokenixc: '',
  ipmkauth: '',
  clientidmkauth: '',
  clientsecretmkauth: '',
  asaas: '',
};

/** Integration settings: only admins see them (DOMAIN §11). */
export const secretSettingKeys: readonly SettingKey[] = [
  'ipixc',
  'tokenixc',
  'ipmkauth',
  'clientidmkauth',
  'clientsecretmkauth',
  'asaas',
];

/**
 * The integration tokens among them (DOMAIN §18): stored encrypted, write-only. `GET /settings`
 * gives admins `isSet`/`last4`, never the value; a `PUT` with an empty value clears one. The
 * hosts (`ipixc`, `ipmkauth`) stay readable by admins.
 */
export const encryptedSettingKeys = [
  'tokenixc',
  'clientidmkauth',
  'clientsecretmkauth',
  'asaas',
] as const satisfies readonly SettingKey[];
export type EncryptedSettingKey = (typeof encryptedSettingKeys)[number];
export const isEncryptedSettingKey = (key: string): key is EncryptedSettingKey =>
  (encryptedSettingKeys as readonly string[]).includes(key);

export const settingUpdate = z.object({ value: z.string().max(500) });
export const settingKeyParam = z.object({ key: z.string().min(1).max(64) });
