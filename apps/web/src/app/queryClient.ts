import { QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from '../api/http';
import { toastError } from '../components/toastError';

const MAX_RETRIES = 2;

export function createQueryClient(): QueryClient {
  return new QueryClient({
    // A query with `meta: { silent: true }` handles its own failure (spec part 2 §8: some loads are only logged).
    queryCache: new QueryCache({ onError: (error, query) => (query.meta?.silent ? undefined : toastError(error)) }),
    defaultOptions: {
      queries: {
        refetchOnWindowFocus: false,
        retry: (failures, error) => !(error instanceof ApiError && error.status < 500) && failures < MAX_RETRIES,
      },
    },
  });
}
