import type { Campaign, CampaignCounts, Shipping } from '@balcao/shared';

export function counts(overrides: Partial<CampaignCounts> = {}): CampaignCounts {
  return {
    total: 4,
    pending: 0,
    sending: 0,
    confirming: 0,
    sent: 0,
    delivered: 0,
    read: 0,
    failed: 0,
    skipped: 0,
    optedOut: 0,
    confirmationRequested: 0,
    confirmed: 0,
    validContacts: 4,
    ...overrides,
  };
}

/** An INATIVA campaign with everything chosen; 2026-01-05 09:03 in São Paulo (UTC-3). */
export function campaign(overrides: Partial<Campaign> = {}): Campaign {
  return {
    id: 1,
    name: 'Promoção de verão',
    status: 'INATIVA',
    confirmation: false,
    message1: 'Olá {nome}, temos novidades!',
    message2: null,
    message3: null,
    message4: null,
    message5: null,
    confirmationMessage1: null,
    confirmationMessage2: null,
    confirmationMessage3: null,
    confirmationMessage4: null,
    confirmationMessage5: null,
    scheduledAt: '2026-01-05T12:03:00.000Z',
    completedAt: null,
    startedAt: null,
    whatsappId: 2,
    whatsapp: { id: 2, name: 'Loja', provider: 'beta', status: 'CONNECTED' },
    contactListId: 3,
    contactList: { id: 3, name: 'Clientes VIP', contactsCount: 4 },
    tagListId: null,
    fileListId: null,
    companyId: 1,
    mediaPath: null,
    mediaName: null,
    templateName: null,
    templateLanguage: null,
    templateVariables: [],
    counts: counts(),
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

export function shipping(overrides: Partial<Shipping> = {}): Shipping {
  return {
    id: 10,
    campaignId: 1,
    number: '5511999990000',
    name: 'Maria Lima',
    email: 'maria@example.com',
    status: 'delivered',
    reason: null,
    attempts: 1,
    messageIndex: 1,
    confirmationRequestedAt: null,
    confirmation: false,
    sentAt: '2026-01-05T12:04:00.000Z',
    deliveredAt: '2026-01-05T12:05:00.000Z',
    readAt: null,
    repliedAt: null,
    updatedAt: '2026-01-05T12:05:00.000Z',
    ...overrides,
  };
}

/** A campaign has a `status` field: mockApi would read it as the HTTP status. */
export const ok = (body: unknown) => ({ status: 200, body });
