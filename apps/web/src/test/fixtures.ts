import type { Plan, SessionReply, SessionUser, User } from '@balcao/shared';

export function plan(overrides: Partial<Plan> = {}): Plan {
  return {
    id: 1,
    name: 'Plano',
    users: 10,
    connections: 2,
    queues: 5,
    value: 99,
    useCampaigns: true,
    useSchedules: true,
    useInternalChat: true,
    useExternalApi: true,
    useKanban: true,
    useOpenAi: true,
    useIntegrations: true,
    ...overrides,
  };
}

export function user(overrides: Partial<User> = {}): User {
  return {
    id: 7,
    name: 'Ana Souza',
    email: 'ana@acme.test',
    profile: 'admin',
    super: false,
    companyId: 1,
    whatsappId: null,
    limitAttendance: 0,
    allTicket: 'disable',
    online: true,
    avatar: null,
    queues: [],
    createdAt: '2024-01-01T00:00:00.000Z',
    ...overrides,
  };
}

export function sessionUser(
  overrides: Partial<SessionUser> = {},
  company: Partial<SessionUser['company']> = {},
): SessionUser {
  return {
    ...user(),
    company: {
      id: 1,
      name: 'Acme',
      dueDate: null,
      trialExpiration: null,
      email: 'billing@acme.test',
      settings: [],
      plan: plan(),
      ...company,
    },
    ...overrides,
  };
}

export function sessionReply(overrides: Partial<SessionReply> = {}): SessionReply {
  return { token: 'token', user: sessionUser(), ...overrides };
}
