import { z } from 'zod';

export const settingSchema = z.object({ key: z.string(), value: z.string() });
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

/** Integration credentials: only admins read them (DOMAIN §11). */
export const secretSettingKeys: readonly SettingKey[] = [
  'ipixc',
  'tokenixc',
  'ipmkauth',
  'clientidmkauth',
  'clientsecretmkauth',
  'asaas',
];

export const settingUpdate = z.object({ value: z.string().max(500) });
export const settingKeyParam = z.object({ key: z.string().min(1).max(64) });
