import { PAGE_SIZE } from '@balcao/shared';

/** `pageNumber` (1-based) → SQL limit/offset. One extra row is fetched to know `hasMore`. */
export function pageWindow(pageNumber: number, size = PAGE_SIZE) {
  return { limit: size + 1, offset: (pageNumber - 1) * size, size };
}

export function pageOf<T>(rows: T[], size = PAGE_SIZE): { items: T[]; hasMore: boolean } {
  return { items: rows.slice(0, size), hasMore: rows.length > size };
}

/** Escapes LIKE wildcards so a search for `50%` matches the text, not everything. */
export function likePattern(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
