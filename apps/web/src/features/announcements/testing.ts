import type { Announcement } from '@balcao/shared';

export function announcement(overrides: Partial<Announcement> = {}): Announcement {
  const id = overrides.id ?? 1;
  return {
    id,
    title: `Aviso ${id}`,
    text: `Texto do aviso ${id}`,
    priority: 3,
    status: true,
    mediaPath: null,
    mediaName: null,
    createdAt: new Date(Date.UTC(2026, 0, 1, 12, id)).toISOString(),
    updatedAt: new Date(Date.UTC(2026, 0, 1, 12, id)).toISOString(),
    ...overrides,
  };
}
