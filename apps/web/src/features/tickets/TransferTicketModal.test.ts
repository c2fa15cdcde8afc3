import { describe, expect, it } from 'vitest';
import { usersOfQueue } from './TransferTicketModal';

describe('transfer: users offered', () => {
  const users = [
    { id: 1, name: 'Ana', profile: 'admin' as const, online: true, queueIds: [] },
    { id: 2, name: 'Bruno', profile: 'user' as const, online: true, queueIds: [10, 11] },
    { id: 3, name: 'Carla', profile: 'user' as const, online: false, queueIds: [11] },
  ];

  it('are the members of the chosen queue, and nobody before a queue is chosen', () => {
    expect(usersOfQueue(users, 10).map((u) => u.name)).toEqual(['Bruno']);
    expect(usersOfQueue(users, 11).map((u) => u.name)).toEqual(['Bruno', 'Carla']);
    expect(usersOfQueue(users, '')).toEqual([]);
  });
});
