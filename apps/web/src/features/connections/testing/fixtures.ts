import type { Whatsapp } from '@balcao/shared';

export function whatsapp(overrides: Partial<Whatsapp> = {}): Whatsapp {
  return {
    id: 1,
    name: 'Principal',
    status: 'CONNECTED',
    qrcode: '',
    retries: 0,
    isDefault: false,
    provider: 'beta',
    number: null,
    greetingMessage: '',
    complationMessage: '',
    outOfHoursMessage: '',
    ratingMessage: '',
    expiresInactiveMessage: '',
    expiresTicket: 0,
    timeSendQueue: 0,
    sendIdQueue: null,
    timeUseBotQueues: 0,
    maxUseBotQueues: 3,
    queueHolidayMessage: '',
    queueHolidayDate: null,
    queueHolidayEnd: null,
    promptId: null,
    integrationId: null,
    hasToken: false,
    queues: [],
    updatedAt: '2024-03-09T14:05:00.000Z',
    ...overrides,
  };
}
