import AnnouncementIcon from '@mui/icons-material/AnnouncementOutlined';
import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../api/queryKeys';
import { useSessionUser } from '../app/AuthContext';
import { lazyNamed } from '../components/lazyNamed';
import { useInfiniteList } from '../components/useInfiniteList';
import { announcementsApi } from '../features/announcements/announcementsApi';
import { unreadCount, useSeenAt } from '../features/announcements/unread';
import { useAnnouncementsLive } from '../features/announcements/useAnnouncementsLive';
import { TopBarPopover, TopBarPopoverList } from './TopBarPopover';

const AnnouncementItem = lazyNamed(() => import('./AnnouncementItem'), 'AnnouncementItem');

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
        <Suspense fallback={null}>
          {records.map((record) => (
            <AnnouncementItem key={record.id} record={record} unread={Date.parse(record.createdAt) > openedSeenAt} />
          ))}
        </Suspense>
      </TopBarPopoverList>
    </TopBarPopover>
  );
}
