import type { Setting } from '@balcao/shared';

// Apart from settingsApi: the shell's live updates need this, not the settings' defaults and schemas (zod).
/** The settings list with one setting replaced (or added). */
export function withSetting(settings: Setting[] | undefined, setting: Setting): Setting[] {
  const others = (settings ?? []).filter((s) => s.key !== setting.key);
  return [...others, setting];
}
