import type {
  IntegrationTestReply,
  QueueIntegration,
  QueueIntegrationInput,
  QueueIntegrationsPage,
} from '@balcao/shared';
import { useQuery } from '@tanstack/react-query';
import { http } from '../../api/client';
import { queryKeys } from '../../api/queryKeys';

/** POST/PUT /queueIntegration body: `jsonContent` (write-only) is sent only to set or replace it. */
export type QueueIntegrationBody = Omit<QueueIntegrationInput, 'jsonContent'> & { jsonContent?: string };

/** POST /queueIntegration/testSession: a saved integration (`id`) and/or the dialog's unsaved fields. */
export type IntegrationTestBody = Partial<QueueIntegrationBody> & { id?: number; text: string };

export const queueIntegrationsApi = {
  list: (searchParam: string, pageNumber: number) =>
    http.get<QueueIntegrationsPage>('/queueIntegration/', { searchParam, pageNumber }),
  /** Without a query the API answers every integration, as a plain array (the pickers). */
  all: () => http.get<QueueIntegration[]>('/queueIntegration'),
  show: (id: number) => http.get<QueueIntegration>(`/queueIntegration/${id}`),
  create: (body: QueueIntegrationBody) => http.post<QueueIntegration>('/queueIntegration', body),
  update: (id: number, body: QueueIntegrationBody) => http.put<QueueIntegration>(`/queueIntegration/${id}`, body),
  remove: (id: number) => http.delete<{ message: string }>(`/queueIntegration/${id}`),
  /** Really calls the integration (DOMAIN §17) and reports what came back. */
  test: (body: IntegrationTestBody) => http.post<IntegrationTestReply>('/queueIntegration/testSession', body),
};

/** The company's integrations for a picker; `enabled` false (the plan has no useIntegrations) asks nothing. */
export function useQueueIntegrationOptions(enabled = true) {
  return useQuery({ queryKey: queryKeys.queueIntegrations.options, queryFn: queueIntegrationsApi.all, enabled });
}
