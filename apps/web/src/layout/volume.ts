import { STORAGE, VOLUME } from '@balcao/shared';

/** Notification volume (0..1, default 1), kept in browser storage under `volume`. */
export function storedVolume(): number {
  const raw = localStorage.getItem(STORAGE.volume);
  const value = raw === null ? Number.NaN : Number(raw);
  return Number.isFinite(value) ? Math.min(VOLUME.max, Math.max(VOLUME.min, value)) : VOLUME.default;
}

export function storeVolume(value: number): void {
  localStorage.setItem(STORAGE.volume, String(value));
}
