import type { CacheStore } from '@whiskeysockets/baileys';

/**
 * A small in-memory cache with a size cap and a time to live: Baileys' retry counters, group
 * names, numbers checked. Oldest entries go first, so memory never grows with traffic.
 */
export class BoundedCache<V = unknown> implements CacheStore {
  private readonly entries = new Map<string, { value: V; expires: number }>();

  constructor(
    private readonly max: number,
    private readonly ttlMs: number,
  ) {}

  get<T = V>(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expires <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value as unknown as T;
  }

  set<T = V>(key: string, value: T): void {
    this.entries.delete(key);
    this.entries.set(key, { value: value as unknown as V, expires: Date.now() + this.ttlMs });
    while (this.entries.size > this.max) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  del(key: string): void {
    this.entries.delete(key);
  }

  flushAll(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
