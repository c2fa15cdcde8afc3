/**
 * Test helpers of the tickets and messages features: entity factories, and the fake live channel
 * (test/fakeSocket) that `vi.mock('../../app/RealtimeProvider', ...)` can route `useSocketEvent` to.
 */
import type { Message, QuickMessage, Ticket } from '@balcao/shared';
import { useLocation } from 'react-router';

export { emitSocket, useSocketEvent as useFakeSocketEvent } from '../../test/fakeSocket';

export function ticket(overrides: Partial<Ticket> = {}): Ticket {
  const id = overrides.id ?? 1;
  return {
    id,
    uuid: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
    status: 'open',
    lastMessage: 'Olá',
    unreadMessages: 0,
    isGroup: false,
    chatbot: false,
    useIntegration: false,
    integrationId: null,
    promptId: null,
    contactId: 100 + id,
    whatsappId: 1,
    userId: 7,
    queueId: 1,
    contact: {
      id: 100 + id,
      name: `Contato ${id}`,
      number: `55119999900${String(id).padStart(2, '0')}`,
      email: '',
      profilePicUrl: '',
      isGroup: false,
      uuid: `contact-${id}`,
    },
    user: { id: 7, name: 'Ana Souza' },
    queue: { id: 1, name: 'Vendas', color: '#7C3AED' },
    whatsapp: { id: 1, name: 'Principal' },
    tags: [],
    createdAt: '2024-05-01T10:00:00.000Z',
    updatedAt: '2024-05-01T10:00:00.000Z',
    ...overrides,
  };
}

export function message(overrides: Partial<Message> = {}): Message {
  return {
    id: 1,
    ticketId: 1,
    body: 'Oi',
    fromMe: false,
    mediaType: 'chat',
    mediaUrl: null,
    mediaName: null,
    isDeleted: false,
    isEdited: false,
    ack: 0,
    read: true,
    participant: null,
    sendStatus: 'received',
    sendError: null,
    quotedMsg: null,
    contact: { id: 101, name: 'Contato 1' },
    createdAt: '2024-05-01T10:00:00.000Z',
    ...overrides,
  };
}

export function quickMessage(overrides: Partial<QuickMessage> = {}): QuickMessage {
  return {
    id: 1,
    shortcode: 'saudacao',
    message: 'Olá! Seja bem-vindo ao nosso atendimento.',
    geral: true,
    userId: null,
    isMedia: false,
    mediaUrl: null,
    mediaName: null,
    ...overrides,
  };
}

/** Shows the router's current path, to assert navigations. */
export function LocationProbe() {
  const location = useLocation();
  return <span data-testid="location">{location.pathname}</span>;
}
