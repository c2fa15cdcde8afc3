import { companyEvent, type Setting } from '@balcao/shared';
import { useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '../../api/queryKeys';
import { useSessionUser } from '../../app/AuthContext';
import { useSocketEvent } from '../../app/RealtimeProvider';
import { withSetting } from './settingsCache';

interface SettingEvent {
  action: 'update';
  /** A credential's event names its key only (secrets never travel in events): it is read again. */
  setting: Pick<Setting, 'key'> & Partial<Setting>;
}

/** Applies `company-{id}-settings` updates to the settings cache. */
export function useSettingsRealtime(): void {
  const { companyId } = useSessionUser();
  const queryClient = useQueryClient();
  useSocketEvent<SettingEvent>(companyEvent.settings(companyId), ({ action, setting }) => {
    if (action !== 'update' || !setting) return;
    const { key, value } = setting;
    if (value === undefined) void queryClient.invalidateQueries({ queryKey: queryKeys.settings });
    else
      queryClient.setQueryData<Setting[]>(
        queryKeys.settings,
        (settings) => settings && withSetting(settings, { key, value }),
      );
  });
}
