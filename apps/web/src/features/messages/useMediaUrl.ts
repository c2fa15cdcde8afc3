import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { queryKeys } from '../../api/queryKeys';
import { messagesApi } from './messagesApi';

/** An object URL of a message's media file, fetched with the token (the API does not serve it publicly). */
export function useMediaUrl(url: string | null) {
  const file = useQuery({
    queryKey: queryKeys.messages.media(url ?? ''),
    // A missing file shows as such in the bubble, without an error toast per message.
    queryFn: () => messagesApi.media(url ?? '').catch(() => null),
    enabled: Boolean(url),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 5 * 60_000,
    retry: false,
  });
  const [objectUrl, setObjectUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file.data || typeof URL.createObjectURL !== 'function') return;
    const created = URL.createObjectURL(file.data);
    setObjectUrl(created);
    return () => {
      URL.revokeObjectURL(created);
      setObjectUrl(null);
    };
  }, [file.data]);
  return { objectUrl, loading: file.isPending && Boolean(url), failed: file.data === null || file.isError };
}
