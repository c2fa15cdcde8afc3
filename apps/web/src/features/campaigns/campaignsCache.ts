import type { Campaign, CampaignEvent } from '@balcao/shared';
import type { InfiniteData } from '@tanstack/react-query';
import type { CampaignsPage } from './campaignsApi';

export type CampaignsData = InfiniteData<CampaignsPage, number>;

function mapPages(data: CampaignsData, change: (records: Campaign[]) => Campaign[], countDelta: number) {
  return {
    ...data,
    pages: data.pages.map((page) => ({ ...page, records: change(page.records), count: page.count + countDelta })),
  };
}

/**
 * A campaigns list after `company-{id}-campaign` (spec part 2 §4): `create`/`update` replace in
 * place or prepend (not while a search is shown, which the record may not match), `delete` removes.
 */
export function applyCampaignEvent(
  data: CampaignsData | undefined,
  event: CampaignEvent,
  searchParam = '',
): CampaignsData | undefined {
  if (!data) return data;
  const listed = (id: number) => data.pages.some((page) => page.records.some((r) => r.id === id));
  if (event.action === 'delete') {
    return listed(event.id) ? mapPages(data, (records) => records.filter((r) => r.id !== event.id), -1) : data;
  }
  const { record } = event;
  if (listed(record.id)) return mapPages(data, (records) => records.map((r) => (r.id === record.id ? record : r)), 0);
  if (searchParam) return data;
  return {
    ...data,
    pages: data.pages.map((page, index) => ({
      ...page,
      records: index === 0 ? [record, ...page.records] : page.records,
      count: page.count + 1,
    })),
  };
}
