import Avatar from '@mui/material/Avatar';
import type { SxProps, Theme } from '@mui/material/styles';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { http } from '../api/client';
import { queryKeys } from '../api/queryKeys';

/** Up to two letters: the first of the first word and of the last ("Maria da Silva" → "MS"). */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '?';
  const first = (word: string) => Array.from(word)[0]?.toUpperCase() ?? '';
  return words.length === 1 ? first(words[0]) : `${first(words[0])}${first(words[words.length - 1])}`;
}

/**
 * What an `<img>` can show for a stored picture URL. Avatars and contacts' pictures are private
 * media (`/media/…`, the company's members only): they are fetched with the token, like message
 * media, and shown as an object URL; the same picture is fetched once for every place that shows it.
 * An absolute http(s) URL is shown as it is.
 */
function usePictureUrl(src: string | null | undefined): string | undefined {
  const media = src?.startsWith('/media/') ? src : null;
  const file = useQuery({
    queryKey: queryKeys.picture(media ?? ''),
    // A missing or unreadable picture falls back to the initials, without an error toast.
    queryFn: () => http.getBlob(media ?? '').catch(() => null),
    enabled: media !== null,
    // A stored picture never changes: a new one comes under a new URL.
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 30 * 60_000,
    retry: false,
  });
  const [objectUrl, setObjectUrl] = useState<string>();
  useEffect(() => {
    if (!media || !file.data || typeof URL.createObjectURL !== 'function') return;
    const created = URL.createObjectURL(file.data);
    setObjectUrl(created);
    return () => {
      URL.revokeObjectURL(created);
      setObjectUrl(undefined);
    };
  }, [media, file.data]);
  if (media) return objectUrl;
  return src && /^https?:\/\//.test(src) ? src : undefined;
}

interface PersonAvatarProps {
  /** Whose picture: the initials come from it while there is none (or while it loads). */
  name: string;
  /** A user's `avatar` or a contact's `profilePicUrl`. */
  src?: string | null;
  /** Width and height in px. */
  size?: number;
  sx?: SxProps<Theme>;
  'data-testid'?: string;
}

/** A user's or a contact's picture, with their initials as the fallback. */
export function PersonAvatar({ name, src, size = 40, sx, 'data-testid': testId }: PersonAvatarProps) {
  const url = usePictureUrl(src);
  return (
    <Avatar
      src={url}
      alt={name}
      data-testid={testId}
      sx={[{ width: size, height: size, fontSize: Math.round(size * 0.4) }, ...(Array.isArray(sx) ? sx : [sx])]}
    >
      {initialsOf(name)}
    </Avatar>
  );
}
