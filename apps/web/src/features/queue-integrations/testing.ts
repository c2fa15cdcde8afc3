import type { QueueIntegration } from '@balcao/shared';

/** A saved integration as the API shows it to an admin (a typebot flow unless overridden). */
export function integration(overrides: Partial<QueueIntegration> = {}): QueueIntegration {
  return {
    id: 1,
    type: 'typebot',
    name: 'Fluxo de vendas',
    projectName: 'Fluxo de vendas',
    jsonContentClientEmail: '',
    language: 'pt-BR',
    urlN8N: 'https://typebot.acme.test',
    typebotDelayMessage: 1000,
    typebotExpires: 1,
    typebotKeywordFinish: 'sair',
    typebotKeywordRestart: 'menu',
    typebotRestartMessage: 'Vamos recomeçar.',
    typebotSlug: 'vendas',
    typebotUnknownMessage: 'Não entendi.',
    updatedAt: '2024-03-09T14:05:00.000Z',
    ...overrides,
  };
}
