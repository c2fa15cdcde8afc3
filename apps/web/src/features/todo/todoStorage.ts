/**
 * The personal to-do list (spec part 2 §2 "To-do list", DOMAIN §15): kept only in the browser,
 * under the storage key `tasks`, as one array shared by everyone who signs in on this browser.
 * Every item carries its owner (companyId, userId); a user sees and edits only their own, and
 * every other entry of the array (other users' items, legacy items without an owner, entries of
 * an unknown shape) is written back exactly as it was read.
 *
 * Pure functions over the parsed array, plus `loadEntries` / `saveEntries` for the storage itself.
 */

/** The browser storage key of the spec (part 1 §3 "Browser storage keys"). */
export const TODO_STORAGE_KEY = 'tasks';

/** Spec part 2 §5 / §9: "to-do text max 150". */
export const TODO_TEXT_MAX = 150;

/** Parado (initial), Em Andamento, Resolvido. */
export const TODO_STATUSES = ['stopped', 'inProgress', 'resolved'] as const;
export type TodoStatus = (typeof TODO_STATUSES)[number];
export const TODO_INITIAL_STATUS: TodoStatus = 'stopped';

export interface TodoOwner {
  companyId: number;
  userId: number;
}

export interface TodoItem extends TodoOwner {
  id: string;
  text: string;
  status: TodoStatus;
  createdAt: string;
  updatedAt: string;
}

export type TextCheck = { ok: true; text: string } | { ok: false; reason: 'empty' | 'tooLong' };

export function isTodoStatus(value: unknown): value is TodoStatus {
  return TODO_STATUSES.some((s) => s === value);
}

/** Spec §5: the text is trimmed and must keep 1 to 150 characters. */
export function checkText(raw: string): TextCheck {
  const text = raw.trim();
  if (text.length === 0) return { ok: false, reason: 'empty' };
  if (text.length > TODO_TEXT_MAX) return { ok: false, reason: 'tooLong' };
  return { ok: true, text };
}

/**
 * The stored entries. Only an array is a list; anything else (nothing stored, broken JSON, a
 * non-array value) reads as an empty list, and the next save replaces it.
 */
export function parseEntries(raw: string | null): unknown[] {
  if (raw === null) return [];
  try {
    const value: unknown = JSON.parse(raw);
    return Array.isArray(value) ? value : [];
  } catch {
    return [];
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isId(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0;
}

/** An entry in the current shape, whoever owns it; undefined for legacy or malformed entries. */
export function asTodoItem(entry: unknown): TodoItem | undefined {
  if (!isRecord(entry)) return undefined;
  const { id, text, status, companyId, userId, createdAt, updatedAt } = entry;
  if (typeof id !== 'string' || id === '') return undefined;
  if (typeof text !== 'string' || typeof createdAt !== 'string') return undefined;
  if (!isTodoStatus(status) || !isId(companyId) || !isId(userId)) return undefined;
  return {
    id,
    text,
    status,
    companyId,
    userId,
    createdAt,
    updatedAt: typeof updatedAt === 'string' ? updatedAt : createdAt,
  };
}

function ownedBy(entry: unknown, owner: TodoOwner): TodoItem | undefined {
  const item = asTodoItem(entry);
  return item && item.companyId === owner.companyId && item.userId === owner.userId ? item : undefined;
}

/** The owner's items, in the order they were added. */
export function ownItems(entries: readonly unknown[], owner: TodoOwner): TodoItem[] {
  return entries.flatMap((entry) => {
    const item = ownedBy(entry, owner);
    return item ? [item] : [];
  });
}

export function filterItems(items: readonly TodoItem[], filter: TodoStatus | 'all'): TodoItem[] {
  return filter === 'all' ? [...items] : items.filter((item) => item.status === filter);
}

interface NewItem {
  text: string;
  status: TodoStatus;
  id: string;
  now: string;
}

/** Appends the owner's new item; throws on a text `checkText` refuses (the page checks first). */
export function addItem(entries: readonly unknown[], owner: TodoOwner, { text, status, id, now }: NewItem): unknown[] {
  const checked = checkText(text);
  if (!checked.ok) throw new Error(`to-do text refused: ${checked.reason}`);
  const item: TodoItem = {
    id,
    text: checked.text,
    status,
    companyId: owner.companyId,
    userId: owner.userId,
    createdAt: now,
    updatedAt: now,
  };
  return [...entries, item];
}

/** Sets the status of one of the owner's items; every other entry is kept as it is. */
export function setItemStatus(
  entries: readonly unknown[],
  owner: TodoOwner,
  id: string,
  status: TodoStatus,
  now: string,
): unknown[] {
  return entries.map((entry) => {
    const item = ownedBy(entry, owner);
    // Spread the stored entry, not the parsed item: fields this version does not know survive.
    return item && item.id === id ? { ...(entry as object), status, updatedAt: now } : entry;
  });
}

/** Removes one of the owner's items; entries of anyone else (or of nobody) are never removed. */
export function removeItem(entries: readonly unknown[], owner: TodoOwner, id: string): unknown[] {
  return entries.filter((entry) => ownedBy(entry, owner)?.id !== id);
}

export function loadEntries(storage: Storage = localStorage): unknown[] {
  return parseEntries(storage.getItem(TODO_STORAGE_KEY));
}

export function saveEntries(entries: readonly unknown[], storage: Storage = localStorage): void {
  storage.setItem(TODO_STORAGE_KEY, JSON.stringify(entries));
}

/** A unique item id; `crypto.randomUUID` only exists in secure contexts (not plain http on a LAN). */
export function newItemId(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}
