import type { Announcement } from '@balcao/shared';
import AnnouncementIcon from '@mui/icons-material/AnnouncementOutlined';
import Box from '@mui/material/Box';
import ListItem from '@mui/material/ListItem';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../api/queryKeys';
import { useSessionUser } from '../app/AuthContext';
import { useInfiniteList } from '../components/useInfiniteList';
import { announcementsApi } from '../features/announcements/announcementsApi';
import { PriorityChip, priorityColor } from '../features/announcements/PriorityChip';
import { unreadCount, useSeenAt } from '../features/announcements/unread';
import { useAnnouncementsLive } from '../features/announcements/useAnnouncementsLive';
import { useMediaUrl } from '../features/messages/useMediaUrl';
import { formatDate, formatTime } from '../features/tickets/format';
import { TopBarPopover, TopBarPopoverList } from './TopBarPopover';

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

function AnnouncementItem({ record, unread }: { record: Announcement; unread: boolean }) {
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

/**
 * The top bar's announcements (spec part 1 §2) for every user: the active ones, newest first, page
 * by page near the bottom, live through `company-announcement`. The badge counts those published
 * since the user last opened it (see `unread.ts`).
 */
export function AnnouncementsPopover() {
  const { t } = useTranslation();
  const me = useSessionUser();
  useAnnouncementsLive('active');
  const list = useInfiniteList(queryKeys.announcements.active, (page) => announcementsApi.active(page));
  const records = list.data?.pages.flatMap((page) => page.records) ?? [];
  const { seenAt, markSeen } = useSeenAt(me.id);
  const [open, setOpen] = useState(false);
  // The mark of when the popover was opened: what was new then stays highlighted while it is open.
  const [openedSeenAt, setOpenedSeenAt] = useState(seenAt);

  const unread = unreadCount(records, seenAt);
  const badge = unread > 0 && unread === records.length && list.hasNextPage ? `${unread}+` : unread;

  return (
    <TopBarPopover
      label={t('announcements.popover.button')}
      icon={<AnnouncementIcon />}
      badgeContent={badge}
      testId="announcements"
      badgeTestId="announcements-unread"
      buttonData={{ 'data-unread': unread }}
      title={t('announcements.popover.title')}
      width={400}
      open={open}
      onOpen={() => {
        setOpenedSeenAt(seenAt);
        setOpen(true);
        markSeen(records);
      }}
      onClose={() => {
        setOpen(false);
        // What arrived live while it was open has been seen too.
        markSeen(records);
      }}
    >
      <TopBarPopoverList
        list={list}
        empty={records.length === 0}
        emptyText={t('announcements.popover.empty')}
        testId="announcements-popover-list"
        emptyTestId="announcements-empty"
        maxHeight={{ xs: 'calc(100vh - 160px)', sm: 480 }}
      >
        {records.map((record) => (
          <AnnouncementItem key={record.id} record={record} unread={Date.parse(record.createdAt) > openedSeenAt} />
        ))}
      </TopBarPopoverList>
    </TopBarPopover>
  );
}
