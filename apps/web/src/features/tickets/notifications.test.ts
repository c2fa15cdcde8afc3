import { describe, expect, it } from 'vitest';
import { shouldNotify, ticketNotifications } from './notifications';
import { message, ticket } from './testing';

const create = (overrides: Parameters<typeof message>[0], t?: ReturnType<typeof ticket>) => ({
  action: 'create' as const,
  message: message(overrides),
  ticket: t,
});

describe('shouldNotify', () => {
  it('notifies a contact message of a ticket that is not on screen', () => {
    expect(shouldNotify(create({ ticketId: 2 }, ticket({ id: 2 })), 7, 1, true)).toBe(true);
  });

  it('stays quiet for the ticket on screen, unless the page is hidden', () => {
    expect(shouldNotify(create({ ticketId: 1 }, ticket({ id: 1 })), 7, 1, true)).toBe(false);
    expect(shouldNotify(create({ ticketId: 1 }, ticket({ id: 1 })), 7, 1, false)).toBe(true);
  });

  it('always notifies a pending ticket', () => {
    const pending = ticket({ id: 1, status: 'pending', userId: null, user: null });
    expect(shouldNotify(create({ ticketId: 1 }, pending), 7, 1, true)).toBe(true);
  });

  it('never notifies our own messages or tickets of other users', () => {
    expect(shouldNotify(create({ ticketId: 2, fromMe: true }, ticket({ id: 2 })), 7, null, true)).toBe(false);
    expect(shouldNotify(create({ ticketId: 2 }, ticket({ id: 2, userId: 9 })), 7, null, true)).toBe(false);
    expect(shouldNotify({ action: 'update', message: message({ ticketId: 2 }) }, 7, null, true)).toBe(false);
  });
});

describe('ticketNotifications', () => {
  it('counts per ticket and clears a ticket when it is opened', () => {
    ticketNotifications.reset();
    ticketNotifications.add(1);
    ticketNotifications.add(1);
    ticketNotifications.add(2);
    expect(ticketNotifications.total()).toBe(3);
    ticketNotifications.setViewing(1);
    expect(ticketNotifications.total()).toBe(1);
    ticketNotifications.reset();
  });
});
