import type { Schedule } from '@balcao/shared';

export function schedule(overrides: Partial<Schedule> = {}): Schedule {
  return {
    id: 1,
    body: 'Lembrete da sua consulta amanhã às 10h',
    sendAt: new Date(2026, 0, 5, 9, 3, 7).toISOString(),
    sentAt: null,
    status: 'PENDENTE',
    companyId: 1,
    contactId: 3,
    contact: { id: 3, name: 'Maria Lima', number: '5511999990000' },
    whatsappId: 2,
    whatsapp: { id: 2, name: 'Loja' },
    userId: 7,
    user: { id: 7, name: 'Ana Souza' },
    mediaPath: null,
    mediaName: null,
    attempts: 0,
    lastError: null,
    recurrence: 'none',
    cancelIfReplied: false,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}
