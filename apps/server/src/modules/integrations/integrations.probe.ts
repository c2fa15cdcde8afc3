import { randomUUID } from 'node:crypto';
import type { IntegrationTestInput, IntegrationTestReply } from '@balcao/shared';
import type { AppDeps } from '../../platform/http/types.js';
import type { ServiceContext } from '../../platform/tenancy/context.js';
import { type BotClient, BotError, type BotIntegration } from './bots/bot.js';
import { createBotClient } from './bots/index.js';
import { integrationForTest, type SecretKey } from './integrations.service.js';

/**
 * `POST /queueIntegration/testSession`: the integration is really called with a test message and what it
 * answered is reported; nothing is stored or sent to anyone.
 */
export async function testIntegration(
  deps: AppDeps,
  ctx: ServiceContext,
  key: SecretKey,
  input: IntegrationTestInput,
): Promise<IntegrationTestReply> {
  const { text, ...fields } = input;
  const integration: BotIntegration = await integrationForTest(ctx, key, fields);
  const client: BotClient = createBotClient(integration.type, botOptionsOf(deps.config));
  try {
    const answer = await client.turn({
      integration,
      sessionId: null,
      deliveryId: randomUUID(),
      ticketId: 0,
      contact: { number: '', name: 'Teste' },
      message: { id: 0, type: 'chat', text },
    });
    return {
      ok: true,
      messages: answer.outputs.flatMap((o) =>
        o.kind === 'text' ? [o.text] : o.kind === 'media' ? [`[${o.mediaType}] ${o.url}`] : [],
      ),
      actions: answer.actions.map((a) => (a.verb === 'transfer' ? `transfer:${a.queueId}` : a.verb)),
    };
  } catch (err) {
    if (!(err instanceof BotError)) throw err;
    return { ok: false, messages: [], actions: [], error: err.message };
  }
}

export const botOptionsOf = (config: { OUTBOUND_ALLOW_PRIVATE: boolean; DIALOGFLOW_BASE_URL: string }) => ({
  allowPrivate: config.OUTBOUND_ALLOW_PRIVATE,
  dialogflowBaseUrl: config.DIALOGFLOW_BASE_URL,
});
