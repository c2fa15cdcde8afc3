import type { AssistantAuthInput, AssistantMessageReply, AssistantState, AssistantUsage } from '@balcao/shared';
import { type QueryClient, useQuery } from '@tanstack/react-query';
import { http } from '../../api/client';

/** The query key of the caller's widget state (GET /assistant). */
export const assistantKey = ['assistant'] as const;

export const assistantApi = {
  state: () => http.get<AssistantState>('/assistant'),
  signIn: (body: AssistantAuthInput) => http.post<AssistantState>('/assistant/auth', body),
  signOut: () => http.post<AssistantState>('/assistant/logout'),
  saveToken: (token: string) => http.put<{ hasToken: boolean }>('/assistant/token', { token }),
  send: (content: string) => http.post<AssistantMessageReply>('/assistant/messages', { content }),
};

/** The widget's state; asked only while its panel is open (mounted). */
export function useAssistantState() {
  return useQuery({ queryKey: assistantKey, queryFn: assistantApi.state, staleTime: 30_000 });
}

/** Patches the cached state (a sign-in, a saved token, an exchange, a new counter). */
export function patchAssistant(queryClient: QueryClient, patch: (state: AssistantState) => AssistantState) {
  queryClient.setQueryData<AssistantState>(assistantKey, (state) => (state ? patch(state) : state));
}

/** The counter a refusal carries (`usage` in the error body), if any. */
export function usageOf(body: Record<string, unknown>): AssistantUsage | undefined {
  const usage = body.usage as Partial<AssistantUsage> | undefined;
  return typeof usage?.remaining === 'number' && typeof usage.limit === 'number'
    ? { remaining: usage.remaining, limit: usage.limit }
    : undefined;
}
