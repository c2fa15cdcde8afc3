import {
  type Campaign,
  type CampaignSettings,
  campaignSettingDefaults,
  type campaignUpdate,
  type FileList,
  type Shipping,
  shippingQuery,
} from '@balcao/shared';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { http } from '../../api/client';
import { queryKeys } from '../../api/queryKeys';
import { filesApi } from '../files/filesApi';

export interface CampaignsPage {
  records: Campaign[];
  count: number;
  hasMore: boolean;
}

export interface ShippingPage {
  records: Shipping[];
  count: number;
  hasMore: boolean;
}

/** The report's filter: every recipient, one state, or the opted-out ones. */
export type ShippingFilter = z.output<typeof shippingQuery>['status'];
export const shippingFilters = shippingQuery.shape.status.unwrap().unwrap().options;

/** What the dialog sends: every field on a POST, the whole form (or only its messages) on a PUT. */
export type CampaignBody = z.output<typeof campaignUpdate>;
/** A key of the company's custom variables, `{key}` in a message. */
export type CampaignVariable = CampaignSettings['variables'][number];

/** Query keys of the campaigns screens (beside `api/queryKeys`, which this feature does not own). */
export const campaignKeys = {
  all: ['campaigns'] as const,
  lists: ['campaigns', 'list'] as const,
  list: (searchParam: string) => ['campaigns', 'list', searchParam] as const,
  detail: (id: number) => ['campaigns', 'detail', id] as const,
  /** Every recipients list of one campaign, whatever the filter. */
  shipping: (id: number) => ['campaigns', 'shipping', id] as const,
  shippingList: (id: number, status: ShippingFilter, searchParam: string) =>
    ['campaigns', 'shipping', id, status, searchParam] as const,
  settings: ['campaignSettings'] as const,
  /** Options of the dialog's selects, under their features' keys so that their changes refresh them. */
  contactListOptions: [...queryKeys.contactLists.all, 'options'] as const,
  fileListOptions: [...queryKeys.fileLists.all, 'options'] as const,
};

/** Spec part 2 §7 "Campaigns". */
export const campaignsApi = {
  list: (searchParam: string, pageNumber: number) =>
    http.get<CampaignsPage>('/campaigns/', { searchParam, pageNumber }),
  show: (id: number) => http.get<Campaign>(`/campaigns/${id}`),
  create: (body: CampaignBody) => http.post<Campaign>('/campaigns', body),
  update: (id: number, body: CampaignBody) => http.put<Campaign>(`/campaigns/${id}`, body),
  remove: (id: number) => http.delete<{ message: string }>(`/campaigns/${id}`),
  /** Multipart, field `file`. */
  uploadMedia: (id: number, file: File) => {
    const form = new FormData();
    form.append('file', file, file.name);
    return http.postForm<Campaign>(`/campaigns/${id}/media-upload`, form);
  },
  removeMedia: (id: number) => http.delete<Campaign>(`/campaigns/${id}/media-upload`),
  cancel: (id: number) => http.post<Campaign>(`/campaigns/${id}/cancel`),
  restart: (id: number) => http.post<Campaign>(`/campaigns/${id}/restart`),
  shipping: (id: number, status: ShippingFilter, searchParam: string, pageNumber: number) =>
    http.get<ShippingPage>(`/campaigns/${id}/shipping`, { status, searchParam, pageNumber }),
  /** Every recipient as CSV (the server's file, not only the loaded pages). */
  exportShipping: (id: number) => http.getBlob(`/campaigns/${id}/shipping/export`),
  settings: () => http.get<{ key: string; value: string }[]>('/campaign-settings'),
  saveSettings: (settings: CampaignSettings) =>
    http.post<{ key: string; value: string }[]>('/campaign-settings', { settings }),
};

function parsed(value: string | undefined): unknown {
  if (value === undefined) return undefined;
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

const isVariable = (v: unknown): v is CampaignVariable =>
  typeof v === 'object' && v !== null && typeof (v as CampaignVariable).key === 'string';

/** The key/value records of GET /campaign-settings (values as JSON text) as one object, with the defaults. */
export function settingsOf(records: { key: string; value: string }[]): CampaignSettings {
  const value = (key: string) => parsed(records.find((r) => r.key === key)?.value);
  const number = (key: keyof typeof campaignSettingDefaults) => {
    const n = Number(value(key));
    return value(key) === undefined || value(key) === null || Number.isNaN(n) ? campaignSettingDefaults[key] : n;
  };
  const variables = value('variables');
  return {
    messageInterval: number('messageInterval'),
    longerIntervalAfter: number('longerIntervalAfter'),
    greaterInterval: number('greaterInterval'),
    variables: Array.isArray(variables)
      ? variables.filter(isVariable).map((v) => ({ key: v.key, value: String(v.value ?? '') }))
      : [],
  };
}

/** The company's campaign settings (GET /campaign-settings), read by the dialog's hint and the settings page. */
export function useCampaignSettings(enabled = true) {
  return useQuery({
    queryKey: campaignKeys.settings,
    queryFn: async () => settingsOf(await campaignsApi.settings()),
    enabled,
  });
}

/** GET /contact-lists/list: every list of the company, as select options. */
export function useContactListOptions(enabled = true) {
  return useQuery({
    queryKey: campaignKeys.contactListOptions,
    queryFn: () => http.get<{ id: number; name: string }[]>('/contact-lists/list'),
    enabled,
  });
}

/** Every file list of the company (GET /files/, page after page), as select options. */
export function useFileListOptions(enabled = true) {
  return useQuery({
    queryKey: campaignKeys.fileListOptions,
    queryFn: async () => {
      const all: FileList[] = [];
      for (let page = 1; ; page++) {
        const reply = await filesApi.list('', page);
        all.push(...reply.files);
        if (!reply.hasMore || reply.files.length === 0) return all.map(({ id, name }) => ({ id, name }));
      }
    },
    enabled,
  });
}
