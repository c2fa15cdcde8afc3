import { type Campaign, type CampaignEvent, companyEvent } from '@balcao/shared';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useSessionUser } from '../../app/AuthContext';
import { useSocketEvent } from '../../app/RealtimeProvider';
import { campaignKeys } from './campaignsApi';
import { applyCampaignEvent, type CampaignsData } from './campaignsCache';

/** Puts a campaign the server returned (or pushed) into every cached list and its detail. */
export function storeCampaign(queryClient: QueryClient, event: CampaignEvent): void {
  for (const [key, data] of queryClient.getQueriesData<CampaignsData>({ queryKey: campaignKeys.lists })) {
    const searchParam = typeof key[2] === 'string' ? key[2] : '';
    queryClient.setQueryData(key, applyCampaignEvent(data, event, searchParam));
  }
  if (event.action === 'delete') queryClient.removeQueries({ queryKey: campaignKeys.detail(event.id) });
  else queryClient.setQueryData<Campaign>(campaignKeys.detail(event.record.id), event.record);
}

/** Keeps the campaigns (lists and details) in step with `company-{id}-campaign`. */
export function useCampaignsRealtime(onEvent?: (event: CampaignEvent) => void): void {
  const me = useSessionUser();
  const queryClient = useQueryClient();
  useSocketEvent<CampaignEvent>(companyEvent.campaign(me.companyId), (event) => {
    storeCampaign(queryClient, event);
    onEvent?.(event);
  });
}
