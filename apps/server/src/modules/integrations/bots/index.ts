import type { IntegrationType } from '@balcao/shared';
import type { BotClient } from './bot.js';
import { createDialogflowClient } from './dialogflow.js';
import { createTypebotClient } from './typebot.js';
import { createWebhookClient } from './webhook.js';

export interface BotClientOptions {
  /** OUTBOUND_ALLOW_PRIVATE (DOMAIN §11). */
  allowPrivate: boolean;
  /** DIALOGFLOW_BASE_URL. */
  dialogflowBaseUrl: string;
  /** Per request, in ms; tests shorten them. */
  timeouts?: Partial<Record<IntegrationType, number>>;
}

/** DOMAIN §17: 5 s webhook/typebot, 30 s n8n (its flows may run an AI agent); Dialogflow per request. */
export const BOT_TIMEOUTS: Readonly<Record<IntegrationType, number>> = {
  typebot: 5000,
  webhook: 5000,
  n8n: 30_000,
  dialogflow: 10_000,
};

export function createBotClient(type: IntegrationType, options: BotClientOptions): BotClient {
  const timeoutMs = options.timeouts?.[type] ?? BOT_TIMEOUTS[type];
  const { allowPrivate } = options;
  switch (type) {
    case 'typebot':
      return createTypebotClient({ allowPrivate, timeoutMs });
    case 'n8n':
    case 'webhook':
      return createWebhookClient({ allowPrivate, timeoutMs });
    case 'dialogflow':
      return createDialogflowClient({ allowPrivate, timeoutMs, baseUrl: options.dialogflowBaseUrl });
  }
}
