import type { Ticket } from '@balcao/shared';
import { describe, expect, it } from 'vitest';
import { message, ticket } from './testing';
import type { TicketListFilter } from './ticketsApi';
import {
  applyContactUpdate,
  applyMessageCreate,
  applyTicketDelete,
  applyTicketEvent,
  applyTicketUpdate,
  applyUnreadReset,
  entersView,
  placeTicket,
  type TicketsData,
  type Viewer,
} from './ticketsCache';

const admin: Viewer = { userId: 7, admin: true, seesNoQueue: true };
const agent: Viewer = { userId: 7, admin: false, seesNoQueue: false };
const openList: TicketListFilter = { status: 'open', showAll: false, queueIds: [1, 2] };
const pendingList: TicketListFilter = { status: 'pending', showAll: false, queueIds: [1, 2] };

function data(...pages: Ticket[][]): TicketsData {
  const count = pages.flat().length;
  return {
    pages: pages.map((tickets, i) => ({ tickets, count, hasMore: i < pages.length - 1 })),
    pageParams: pages.map((_, i) => i + 1),
  };
}

const ids = (d: TicketsData | undefined) => d?.pages.map((p) => p.tickets.map((t) => t.id));
const count = (d: TicketsData | undefined) => d?.pages[0].count;

const t1 = ticket({ id: 1 });
const t2 = ticket({ id: 2 });
const t3 = ticket({ id: 3 });

describe('applyTicketUpdate (spec §4 live list)', () => {
  it('replaces a listed ticket and moves it to the top', () => {
    const next = applyTicketUpdate(data([t1, t2], [t3]), { ...t3, lastMessage: 'novo' }, openList, agent);
    expect(ids(next)).toEqual([[3, 1, 2], []]);
    expect(next?.pages[0].tickets[0].lastMessage).toBe('novo');
    expect(count(next)).toBe(3);
  });

  it('adds a ticket that now fits the list and counts it', () => {
    const next = applyTicketUpdate(data([t1]), t2, openList, agent);
    expect(ids(next)).toEqual([[2, 1]]);
    expect(count(next)).toBe(2);
  });

  it('removes a ticket whose status left the list (accepted from pending)', () => {
    const pending = ticket({ id: 4, status: 'pending', userId: null, user: null });
    const accepted = { ...pending, status: 'open' as const, userId: 7 };
    const before = data([pending, ticket({ id: 5, status: 'pending' })]);
    const next = applyTicketUpdate(before, accepted, pendingList, agent);
    expect(ids(next)).toEqual([[5]]);
    expect(count(next)).toBe(1);
    expect(ids(applyTicketUpdate(data([t1]), accepted, openList, agent))).toEqual([[4, 1]]);
  });

  it('removes a ticket whose queue is not selected', () => {
    const next = applyTicketUpdate(data([t1, t2]), { ...t2, queueId: 9, queue: null }, openList, admin);
    expect(ids(next)).toEqual([[1]]);
  });

  it('removes a ticket without a queue for a plain user, keeps it for an admin and a user with allTicket', () => {
    const noQueue = { ...t2, queueId: null, queue: null };
    expect(ids(applyTicketUpdate(data([t1, t2]), noQueue, openList, agent))).toEqual([[1]]);
    expect(ids(applyTicketUpdate(data([t1, t2]), noQueue, openList, admin))).toEqual([[2, 1]]);
    expect(ids(applyTicketUpdate(data([t1, t2]), noQueue, openList, { ...agent, seesNoQueue: true }))).toEqual([
      [2, 1],
    ]);
  });

  it("keeps another user's open ticket out unless an admin shows all", () => {
    const others = ticket({ id: 8, userId: 9, user: { id: 9, name: 'Bruno' } });
    expect(ids(applyTicketUpdate(data([t1]), others, openList, admin))).toEqual([[1]]);
    expect(ids(applyTicketUpdate(data([t1]), others, { ...openList, showAll: true }, admin))).toEqual([[8, 1]]);
    expect(ids(applyTicketUpdate(data([t1]), others, { ...openList, showAll: true }, agent))).toEqual([[1]]);
  });

  it('only refreshes tickets already found by a text search', () => {
    const search: TicketListFilter = { showAll: true, queueIds: [1], searchParam: 'maria' };
    expect(ids(applyTicketUpdate(data([t1]), t2, search, admin))).toEqual([[1]]);
    expect(ids(applyTicketUpdate(data([t1, t2]), { ...t2, lastMessage: 'x' }, search, admin))).toEqual([[2, 1]]);
  });

  it('applies the tags and users filters of the search tab', () => {
    const byTag: TicketListFilter = { showAll: true, queueIds: [1], tags: [5] };
    const tagged = { ...t2, tags: [{ id: 5, name: 'VIP', color: '#000' }] };
    expect(ids(applyTicketUpdate(data([t1]), tagged, byTag, admin))).toEqual([[2, 1]]);
    expect(ids(applyTicketUpdate(data([t1]), t2, byTag, admin))).toEqual([[1]]);
    const byUser: TicketListFilter = { showAll: true, queueIds: [1], users: [9] };
    expect(ids(applyTicketUpdate(data([t1]), t2, byUser, admin))).toEqual([[1]]);
  });
});

describe('applyTicketEvent', () => {
  it('removes a deleted ticket and counts it', () => {
    const next = applyTicketEvent(data([t1], [t2]), { action: 'delete', ticketId: 2 }, openList, agent);
    expect(ids(next)).toEqual([[1], []]);
    expect(next?.pages.map((p) => p.count)).toEqual([1, 1]);
  });

  it('zeroes the unread count on updateUnread', () => {
    const unread = { ...t1, unreadMessages: 4 };
    const next = applyTicketEvent(data([unread, t2]), { action: 'updateUnread', ticketId: 1 }, openList, agent);
    expect(next?.pages[0].tickets.map((t) => t.unreadMessages)).toEqual([0, 0]);
  });

  it('replaces on update', () => {
    const next = applyTicketEvent(data([t1, t2]), { action: 'update', ticket: t2 }, openList, agent);
    expect(ids(next)).toEqual([[2, 1]]);
  });

  it('leaves lists without the ticket (and empty caches) untouched', () => {
    const before = data([t1]);
    expect(applyTicketDelete(before, 9)).toBe(before);
    expect(applyUnreadReset(before, 9)).toBe(before);
    expect(applyTicketEvent(undefined, { action: 'update', ticket: t1 }, openList, agent)).toBeUndefined();
  });
});

describe('applyMessageCreate', () => {
  it('moves the ticket to the top and bumps unread count and last message', () => {
    const next = applyMessageCreate(
      data([t1, t2]),
      { action: 'create', message: message({ ticketId: 2, body: 'Quero comprar' }) },
      openList,
      agent,
    );
    expect(ids(next)).toEqual([[2, 1]]);
    expect(next?.pages[0].tickets[0]).toMatchObject({ lastMessage: 'Quero comprar', unreadMessages: 1 });
  });

  it('does not count our own messages as unread', () => {
    const next = applyMessageCreate(
      data([t1, t2]),
      { action: 'create', message: message({ ticketId: 2, body: 'Resposta', fromMe: true }) },
      openList,
      agent,
    );
    expect(next?.pages[0].tickets[0]).toMatchObject({ id: 2, unreadMessages: 0, lastMessage: 'Resposta' });
  });

  it('takes the ticket of the payload when there is one (a new pending ticket appears)', () => {
    const fresh = ticket({ id: 6, status: 'pending', userId: null, user: null, unreadMessages: 1, lastMessage: 'Oi' });
    const next = applyMessageCreate(
      data([ticket({ id: 5, status: 'pending' })]),
      { action: 'create', message: message({ ticketId: 6 }), ticket: fresh },
      pendingList,
      agent,
    );
    expect(ids(next)).toEqual([[6, 5]]);
    expect(count(next)).toBe(2);
  });

  it('ignores messages of tickets the list does not hold', () => {
    const before = data([t1]);
    expect(applyMessageCreate(before, { action: 'create', message: message({ ticketId: 9 }) }, openList, agent)).toBe(
      before,
    );
  });
});

describe('applyContactUpdate', () => {
  it('refreshes the contact inside its tickets', () => {
    const next = applyContactUpdate(data([t1, t2]), { id: t2.contactId, name: 'Maria Silva' });
    expect(next?.pages[0].tickets.map((t) => t.contact.name)).toEqual(['Contato 1', 'Maria Silva']);
    expect(next?.pages[0].tickets[1].contact.number).toBe(t2.contact.number);
  });
});

describe('placeTicket', () => {
  it('puts the ticket on top or takes it out, and the count follows', () => {
    expect(count(placeTicket(data([t1]), t2, true))).toBe(2);
    expect(ids(placeTicket(data([t1, t2]), t2, false))).toEqual([[1]]);
    expect(placeTicket(data([t1]), t2, false)).toEqual(data([t1]));
  });
});

describe('entersView', () => {
  it('is true for an unknown ticket and for a new status, queue or user', () => {
    expect(entersView(undefined, t1)).toBe(true);
    expect(entersView(t1, { ...t1, status: 'pending' })).toBe(true);
    expect(entersView(t1, { ...t1, queueId: 2 })).toBe(true);
    expect(entersView(t1, { ...t1, userId: 9 })).toBe(true);
    expect(entersView(t1, { ...t1, lastMessage: 'novo', unreadMessages: 3 })).toBe(false);
  });
});
