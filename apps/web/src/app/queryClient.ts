import { QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from '../api/http';
import { toastError } from '../components/toastError';

const MAX_RETRIES = 2;

export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: toastError }),
    defaultOptions: {
      queries: {
        refetchOnWindowFocus: false,
        retry: (failures, error) => !(error instanceof ApiError && error.status < 500) && failures < MAX_RETRIES,
      },
    },
  });
}
