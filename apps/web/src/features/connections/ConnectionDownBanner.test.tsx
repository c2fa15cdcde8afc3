import type { Whatsapp } from '@balcao/shared';
import { describe, expect, it } from 'vitest';
import { droppedConnections } from './ConnectionDownBanner';

const connection = (id: number, overrides: Partial<Whatsapp>) =>
  ({ id, name: `Conexão ${id}`, status: 'CONNECTED', number: '5511900000000', queues: [], ...overrides }) as Whatsapp;

const list = [
  connection(1, { status: 'DISCONNECTED', queues: [{ id: 10, name: 'Vendas', color: '#000' }] }),
  connection(2, { status: 'OPENING', queues: [{ id: 20, name: 'Suporte', color: '#000' }] }),
  connection(3, { status: 'DISCONNECTED', queues: [] }),
  connection(4, { status: 'CONNECTED', queues: [] }),
  // Never connected yet: not a drop, the connections page shows its first action instead.
  connection(5, { status: 'DISCONNECTED', number: '' }),
];

describe('droppedConnections', () => {
  it('an agent hears of the dropped connections of their queues and of those without a queue', () => {
    const agent = { profile: 'user' as const, queues: [{ id: 10 }] };
    expect(droppedConnections(list, agent).map((w) => w.id)).toEqual([1, 3]);
  });

  it('an admin hears of every dropped connection, never of one that was never connected', () => {
    expect(droppedConnections(list, { profile: 'admin', queues: [] }).map((w) => w.id)).toEqual([1, 2, 3]);
  });
});
