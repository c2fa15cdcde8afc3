import { describe, expect, it } from 'vitest';
import { user } from '../../test/fixtures';
import { applyUserEvent, type UsersData } from './usersCache';

const ana = user({ id: 1, name: 'Ana' });
const bia = user({ id: 2, name: 'Bia' });
const caio = user({ id: 3, name: 'Caio' });

function data(...pages: (typeof ana)[][]): UsersData {
  return {
    pages: pages.map((users, i) => ({ users, count: 3, hasMore: i < pages.length - 1 })),
    pageParams: pages.map((_, i) => i + 1),
  };
}

const names = (d: UsersData | undefined) => d?.pages.map((p) => p.users.map((u) => u.name));

describe('applyUserEvent', () => {
  it('replaces an updated user where it is listed', () => {
    const next = applyUserEvent(data([ana], [bia, caio]), { action: 'update', user: { ...bia, name: 'Beatriz' } });
    expect(names(next)).toEqual([['Ana'], ['Beatriz', 'Caio']]);
    expect(next?.pages[0].count).toBe(3);
  });

  it('adds a created (or unknown updated) user at the top and counts it', () => {
    const next = applyUserEvent(data([ana, bia]), { action: 'create', user: caio });
    expect(names(next)).toEqual([['Caio', 'Ana', 'Bia']]);
    expect(next?.pages[0].count).toBe(4);
  });

  it('removes a deleted user by userId and counts it', () => {
    const next = applyUserEvent(data([ana], [bia, caio]), { action: 'delete', userId: 2 });
    expect(names(next)).toEqual([['Ana'], ['Caio']]);
    expect(next?.pages.map((p) => p.count)).toEqual([2, 2]);
  });

  it('ignores the deletion of a user that is not listed', () => {
    const before = data([ana]);
    expect(applyUserEvent(before, { action: 'delete', userId: 9 })).toBe(before);
  });

  it('leaves an empty cache alone', () => {
    expect(applyUserEvent(undefined, { action: 'create', user: ana })).toBeUndefined();
  });
});
