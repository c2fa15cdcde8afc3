import { QUEUE_COLOR_PALETTE } from '@balcao/shared';

/** A palette colour, and whether another record (not the one being edited) already uses it. */
export interface Swatch {
  color: string;
  taken: boolean;
}

/** The fixed palette with the colours of the other records marked as taken (compared case-insensitively). */
export function paletteSwatches(others: readonly { id: number; color: string }[], editingId: number | null): Swatch[] {
  const used = new Set(others.filter((o) => o.id !== editingId).map((o) => o.color.toUpperCase()));
  return QUEUE_COLOR_PALETTE.map((color) => ({ color, taken: used.has(color.toUpperCase()) }));
}
