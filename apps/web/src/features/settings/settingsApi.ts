import { type Setting, type SettingKey, settingDefaults } from '@balcao/shared';
import { useQuery } from '@tanstack/react-query';
import { http } from '../../api/client';
import { queryKeys } from '../../api/queryKeys';

export const settingsApi = {
  list: () => http.get<Setting[]>('/settings'),
  update: (key: SettingKey, value: string) => http.put<Setting>(`/settings/${key}`, { value }),
};

export function useSettings() {
  return useQuery({ queryKey: queryKeys.settings, queryFn: settingsApi.list });
}

/** The value of a setting, or its default when the company has not stored it yet. */
export function settingValue(settings: Setting[] | undefined, key: SettingKey): string {
  return settings?.find((s) => s.key === key)?.value ?? settingDefaults[key];
}
