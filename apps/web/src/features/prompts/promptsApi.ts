import type { Prompt, PromptInput, PromptsList, PromptUpdate } from '@balcao/shared';
import { useQuery } from '@tanstack/react-query';
import { http } from '../../api/client';

/** The query key of the company's prompts (GET /prompt). */
export const promptsKey = ['prompts'] as const;

export const promptsApi = {
  list: () => http.get<PromptsList>('/prompt'),
  create: (body: PromptInput) => http.post<Prompt>('/prompt', body),
  update: (id: number, body: PromptUpdate) => http.put<Prompt>(`/prompt/${id}`, body),
  remove: (id: number) => http.delete<{ message: string }>(`/prompt/${id}`),
};

/** The company's prompts; `enabled` false (the plan has no useOpenAi) asks nothing. */
export function usePrompts(enabled = true) {
  return useQuery({ queryKey: promptsKey, queryFn: promptsApi.list, enabled, select: (reply) => reply.prompts });
}
