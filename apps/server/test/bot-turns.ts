import { expect } from 'vitest';
import { BotError, type BotIntegration, type BotTurn } from '../src/modules/integrations/bots/bot.js';

/** A turn of a bot client: ticket 42, contact Ana, message 9 saying `text`, on the integration given. */
export function botTurn(
  text: string,
  integration: Partial<BotIntegration> & Pick<BotIntegration, 'type'>,
  over: Partial<BotTurn> = {},
): BotTurn {
  return {
    integration: {
      id: 1,
      companyId: 7,
      name: 'Atendimento',
      projectName: 'Atendimento',
      jsonContent: '',
      language: 'pt-BR',
      url: '',
      typebotSlug: '',
      signingSecret: '',
      ...integration,
    },
    sessionId: null,
    deliveryId: 'd1',
    ticketId: 42,
    contact: { number: '5511999990000', name: 'Ana' },
    message: { id: 9, type: 'chat', text },
    ...over,
  };
}

/** The BotError a client call rejected with (the test fails if it resolved or threw something else). */
export async function botError(promise: Promise<unknown>): Promise<BotError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(BotError);
  return err as BotError;
}
