import type { Contact } from '@balcao/shared';

export function contact(overrides: Partial<Contact> = {}): Contact {
  return {
    id: 1,
    uuid: 'c-1',
    name: 'Maria Lima',
    number: '5511999990001',
    email: '',
    profilePicUrl: '',
    isGroup: false,
    createdAt: '2024-01-01T00:00:00.000Z',
    updatedAt: '2024-01-01T00:00:00.000Z',
    ...overrides,
  };
}
