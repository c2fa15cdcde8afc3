import { describe, expect, it } from 'vitest';
import { type BellViewer, bellViewerOf, inBell, isNews, isTransferredTo, shouldNotify } from './notifications';
import { message, ticket } from './testing';

const create = (overrides: Parameters<typeof message>[0], t?: ReturnType<typeof ticket>) => ({
  action: 'create' as const,
  message: message(overrides),
  ticket: t,
});

const agent: BellViewer = { userId: 7, admin: false, queueIds: [1], seesNoQueue: false };
const pending = (overrides: Parameters<typeof ticket>[0] = {}) =>
  ticket({ id: 5, status: 'pending', userId: null, user: null, queueId: 1, unreadMessages: 2, ...overrides });

describe('bellViewerOf', () => {
  it('takes the queues and allTicket of the user; admins see tickets without a queue', () => {
    const user = { id: 7, profile: 'user' as const, queues: [{ id: 3, name: 'Q', color: '#000' }] };
    expect(bellViewerOf({ ...user, allTicket: 'disable' })).toEqual({ ...agent, queueIds: [3] });
    expect(bellViewerOf({ ...user, allTicket: 'enable' }).seesNoQueue).toBe(true);
    expect(bellViewerOf({ ...user, profile: 'admin', allTicket: 'disable' })).toMatchObject({
      admin: true,
      seesNoQueue: true,
    });
  });
});

describe('inBell', () => {
  it('holds pending tickets with unread messages of the user’s queues', () => {
    expect(inBell(pending(), agent)).toBe(true);
    expect(inBell(pending({ queueId: 2 }), agent)).toBe(false);
    expect(inBell(pending({ unreadMessages: 0 }), agent)).toBe(false);
    expect(inBell(pending({ status: 'open', userId: 7 }), agent)).toBe(false);
  });

  it('holds tickets without a queue only for users who see them (allTicket) and admins', () => {
    expect(inBell(pending({ queueId: null }), agent)).toBe(false);
    expect(inBell(pending({ queueId: null }), { ...agent, seesNoQueue: true })).toBe(true);
    expect(inBell(pending({ queueId: 9 }), { ...agent, admin: true })).toBe(true);
  });
});

describe('isNews', () => {
  it('is news when a ticket enters the bell (the bot chose the queue) or brings more unread messages', () => {
    expect(isNews(undefined, pending(), agent)).toBe(true);
    expect(isNews(pending({ unreadMessages: 1 }), pending(), agent)).toBe(true);
  });

  it('is not news twice for the same state, nor for a ticket outside the bell', () => {
    expect(isNews(pending(), pending(), agent)).toBe(false);
    expect(isNews(undefined, pending({ queueId: null }), agent)).toBe(false);
  });
});

describe('shouldNotify (messages of open tickets)', () => {
  it('notifies a contact message of a ticket that is not on screen', () => {
    expect(shouldNotify(create({ ticketId: 2 }, ticket({ id: 2 })), 7, 1, true)).toBe(true);
  });

  it('stays quiet for the ticket on screen, unless the page is hidden', () => {
    expect(shouldNotify(create({ ticketId: 1 }, ticket({ id: 1 })), 7, 1, true)).toBe(false);
    expect(shouldNotify(create({ ticketId: 1 }, ticket({ id: 1 })), 7, 1, false)).toBe(true);
  });

  it('never notifies our own messages or tickets of other users', () => {
    expect(shouldNotify(create({ ticketId: 2, fromMe: true }, ticket({ id: 2 })), 7, null, true)).toBe(false);
    expect(shouldNotify(create({ ticketId: 2 }, ticket({ id: 2, userId: 9 })), 7, null, true)).toBe(false);
    expect(shouldNotify({ action: 'update', message: message({ ticketId: 2 }) }, 7, null, true)).toBe(false);
  });
});

describe('isTransferredTo', () => {
  it('alerts the user a ticket was handed to, not the one who handed it nor anyone else', () => {
    const open = ticket({ id: 3, status: 'open', userId: 7 });
    expect(isTransferredTo({ action: 'update', ticket: open, transferredTo: 7 }, 7)).toBe(true);
    expect(isTransferredTo({ action: 'update', ticket: open, transferredTo: 7 }, 8)).toBe(false);
    // Accepting a ticket yourself names no receiver.
    expect(isTransferredTo({ action: 'update', ticket: open }, 7)).toBe(false);
  });
});
