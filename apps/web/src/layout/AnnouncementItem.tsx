import type { Announcement } from '@balcao/shared';
import Box from '@mui/material/Box';
import ListItem from '@mui/material/ListItem';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { PriorityChip, priorityColor } from '../features/announcements/PriorityChip';
import { useMediaUrl } from '../features/messages/useMediaUrl';
import { formatDate, formatTime } from '../features/tickets/format';

/** The image, fetched with the session's token (the API serves it to signed-in users only). */
function AnnouncementImage({ path, alt }: { path: string; alt: string }) {
  const { objectUrl, failed } = useMediaUrl(path);
  if (failed) return null;
  if (!objectUrl) return <Skeleton variant="rounded" height={120} sx={{ mt: 1 }} />;
  return (
    <Box
      component="img"
      src={objectUrl}
      alt={alt}
      sx={{ display: 'block', mt: 1, maxWidth: '100%', maxHeight: 260, borderRadius: 1, objectFit: 'contain' }}
    />
  );
}

/** One announcement of the popover: its own module, loaded when the popover first opens. */
export function AnnouncementItem({ record, unread }: { record: Announcement; unread: boolean }) {
  const { t } = useTranslation();
  return (
    <ListItem
      divider
      data-testid={`announcement-item-${record.id}`}
      data-unread={unread}
      sx={{
        display: 'block',
        borderLeft: 4,
        borderLeftColor: priorityColor(record.priority),
        bgcolor: unread ? 'action.hover' : undefined,
      }}
    >
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <Typography variant="body2" sx={{ fontWeight: 700, flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
          {record.title}
        </Typography>
        <PriorityChip priority={record.priority} />
      </Stack>
      <Typography variant="caption" color="text.secondary">
        {formatDate(record.createdAt)} {formatTime(record.createdAt)}
      </Typography>
      {/* Text, never HTML (DOMAIN §15): React escapes it; line breaks are kept. */}
      <Typography
        variant="body2"
        sx={{ mt: 0.5, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
        data-testid={`announcement-text-${record.id}`}
      >
        {record.text}
      </Typography>
      {record.mediaPath && (
        <AnnouncementImage path={record.mediaPath} alt={record.mediaName ?? t('announcements.popover.image')} />
      )}
    </ListItem>
  );
}
