import { describe, expect, it } from 'vitest';
import {
  addItem,
  checkText,
  filterItems,
  loadEntries,
  newItemId,
  ownItems,
  parseEntries,
  removeItem,
  saveEntries,
  setItemStatus,
  TODO_STORAGE_KEY,
  type TodoItem,
} from './todoStorage';

const ANA = { companyId: 1, userId: 7 };
const BIA = { companyId: 1, userId: 8 };
const OTHER_COMPANY_SAME_ID = { companyId: 2, userId: 7 };
const T0 = '2024-05-01T10:00:00.000Z';
const T1 = '2024-05-02T10:00:00.000Z';

function item(overrides: Partial<TodoItem> = {}): TodoItem {
  return { id: 'a', text: 'Ligar', status: 'stopped', ...ANA, createdAt: T0, updatedAt: T0, ...overrides };
}

describe('checkText', () => {
  it('trims and keeps 1 to 150 characters', () => {
    expect(checkText('  Ligar para o cliente  ')).toEqual({ ok: true, text: 'Ligar para o cliente' });
    expect(checkText('')).toEqual({ ok: false, reason: 'empty' });
    expect(checkText(' \n\t ')).toEqual({ ok: false, reason: 'empty' });
    expect(checkText('x'.repeat(150))).toEqual({ ok: true, text: 'x'.repeat(150) });
    expect(checkText(` ${'x'.repeat(150)} `)).toEqual({ ok: true, text: 'x'.repeat(150) });
    expect(checkText('x'.repeat(151))).toEqual({ ok: false, reason: 'tooLong' });
  });
});

describe('parseEntries', () => {
  it('reads an array as is, anything else as an empty list', () => {
    expect(parseEntries(null)).toEqual([]);
    expect(parseEntries('not json{')).toEqual([]);
    expect(parseEntries('{"text":"x"}')).toEqual([]);
    expect(parseEntries('"x"')).toEqual([]);
    expect(parseEntries('null')).toEqual([]);
    expect(parseEntries('[1,{"text":"legado"}]')).toEqual([1, { text: 'legado' }]);
  });
});

describe('ownItems', () => {
  it('keeps only well-formed items of this company and user, in order', () => {
    const entries = [
      item({ id: '1' }),
      item({ id: '2', ...BIA }),
      item({ id: '3', ...OTHER_COMPANY_SAME_ID }),
      { text: 'legado sem dono', status: 'Parado', createdAt: T0 },
      { ...item({ id: '4' }), status: 'Parado' },
      { ...item({ id: '5' }), companyId: '1' },
      null,
      'texto',
      42,
      [item({ id: '6' })],
      item({ id: '7', status: 'resolved' }),
    ];
    expect(ownItems(entries, ANA).map((i) => i.id)).toEqual(['1', '7']);
    expect(ownItems(entries, BIA).map((i) => i.id)).toEqual(['2']);
  });

  it('fills a missing updatedAt with createdAt', () => {
    const { updatedAt: _, ...withoutUpdate } = item();
    expect(ownItems([withoutUpdate], ANA)[0]?.updatedAt).toBe(T0);
  });
});

describe('filterItems', () => {
  it('shows all or one status', () => {
    const items = [item({ id: '1' }), item({ id: '2', status: 'inProgress' }), item({ id: '3', status: 'resolved' })];
    expect(filterItems(items, 'all').map((i) => i.id)).toEqual(['1', '2', '3']);
    expect(filterItems(items, 'inProgress').map((i) => i.id)).toEqual(['2']);
    expect(filterItems(items, 'stopped').map((i) => i.id)).toEqual(['1']);
  });
});

describe('changes', () => {
  const legacy = { text: 'legado', status: 'Parado' };
  const bias = item({ id: 'b', ...BIA, text: 'Da Bia' });

  it('adds the trimmed text with the owner at the end, other entries untouched', () => {
    const next = addItem([legacy, bias], ANA, { text: '  Nova  ', status: 'inProgress', id: 'n', now: T1 });
    expect(next).toEqual([
      legacy,
      bias,
      { id: 'n', text: 'Nova', status: 'inProgress', ...ANA, createdAt: T1, updatedAt: T1 },
    ]);
    expect(next[0]).toBe(legacy);
    expect(next[1]).toBe(bias);
  });

  it('refuses a text checkText refuses', () => {
    expect(() => addItem([], ANA, { text: '   ', status: 'stopped', id: 'n', now: T1 })).toThrow(/empty/);
    expect(() => addItem([], ANA, { text: 'x'.repeat(151), status: 'stopped', id: 'n', now: T1 })).toThrow(/tooLong/);
  });

  it('changes the status of the owner’s item only, keeping fields it does not know', () => {
    const mine = { ...item({ id: 'b' }), color: 'azul' };
    const next = setItemStatus([legacy, bias, mine], ANA, 'b', 'resolved', T1);
    expect(next).toEqual([legacy, bias, { ...mine, status: 'resolved', updatedAt: T1 }]);
    expect(next[1]).toBe(bias);
    // Bia's item with the same id is not Ana's to change.
    expect(setItemStatus([bias], ANA, 'b', 'resolved', T1)).toEqual([bias]);
  });

  it('removes the owner’s item only: other users’ and ownerless entries survive', () => {
    const mine = item({ id: 'b' });
    expect(removeItem([legacy, bias, mine], ANA, 'b')).toEqual([legacy, bias]);
    expect(removeItem([legacy, bias], ANA, 'b')).toEqual([legacy, bias]);
    expect(removeItem([{ id: 'b', text: 'sem dono' }], ANA, 'b')).toEqual([{ id: 'b', text: 'sem dono' }]);
  });
});

describe('storage', () => {
  it('round-trips through the `tasks` key', () => {
    expect(TODO_STORAGE_KEY).toBe('tasks');
    expect(loadEntries()).toEqual([]);
    saveEntries([item()]);
    expect(JSON.parse(localStorage.getItem('tasks') ?? '')).toEqual([item()]);
    expect(loadEntries()).toEqual([item()]);
  });

  it('makes distinct ids', () => {
    expect(newItemId()).not.toBe(newItemId());
  });
});
