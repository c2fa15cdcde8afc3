import type { Chat, ChatMessage } from '@balcao/shared';

/** The fixture's session user is Ana, user 7 of company 1. */
export const ME = 7;
export const BIA = 8;

export function chat(overrides: Partial<Chat> & { mine?: number } = {}): Chat {
  const { mine = 0, ...rest } = overrides;
  const id = rest.id ?? 1;
  return {
    id,
    uuid: `00000000-0000-4000-8000-00000000000${id}`,
    title: `Conversa ${id}`,
    ownerId: ME,
    lastMessage: '',
    createdAt: '2024-05-01T10:00:00.000Z',
    updatedAt: '2024-05-01T10:00:00.000Z',
    users: [
      { userId: ME, unreads: mine, user: { id: ME, name: 'Ana Souza' } },
      { userId: BIA, unreads: 0, user: { id: BIA, name: 'Bia' } },
    ],
    ...rest,
  };
}

export function message(overrides: Partial<ChatMessage> = {}): ChatMessage {
  const id = overrides.id ?? 1;
  return {
    id,
    chatId: 1,
    senderId: BIA,
    sender: { id: BIA, name: 'Bia' },
    message: `mensagem ${id}`,
    createdAt: '2024-05-01T10:00:00.000Z',
    ...overrides,
  };
}
