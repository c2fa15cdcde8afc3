import type { Announcement } from '@balcao/shared';
import ImageOutlined from '@mui/icons-material/ImageOutlined';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../../api/queryKeys';
import { ListTable } from '../../components/ListTable';
import { RowActions } from '../../components/RowActions';
import { SearchableListPage } from '../../components/SearchableListPage';
import { useDeleteConfirmation } from '../../components/useConfirmation';
import { useDebouncedValue } from '../../components/useDebouncedValue';
import { useInfiniteList } from '../../components/useInfiniteList';
import { AnnouncementModal } from './AnnouncementModal';
import { announcementsApi } from './announcementsApi';
import { PriorityChip } from './PriorityChip';
import { useAnnouncementsLive } from './useAnnouncementsLive';

type ModalState = { open: false } | { open: true; id: number | null };

const COLUMNS = ['title', 'priority', 'media', 'status', 'actions'] as const;

/** /announcements, the super user's list (spec part 2 §2; the route's gate turns everyone else away). */
export default function AnnouncementsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  useAnnouncementsLive('lists');
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim());
  const [modal, setModal] = useState<ModalState>({ open: false });

  const list = useInfiniteList(queryKeys.announcements.list(searchParam), (page) =>
    announcementsApi.list(searchParam, page),
  );

  const deletion = useDeleteConfirmation({
    remove: (record: Announcement) => announcementsApi.remove(record.id),
    deletedMessage: t('announcements.deleted'),
    onDeleted: () => void queryClient.invalidateQueries({ queryKey: queryKeys.announcements.all }),
    title: (record) => t('announcements.deleteTitle', { title: record.title }),
    message: t('announcements.deleteMessage'),
  });

  const rows = list.data?.pages.flatMap((page) => page.records) ?? [];
  const count = list.data?.pages[0]?.count;
  const editing = modal.open && modal.id !== null ? (rows.find((r) => r.id === modal.id) ?? null) : null;

  return (
    <SearchableListPage
      ns="announcements"
      title={t('pages.announcements')}
      count={count}
      search={search}
      onSearch={setSearch}
      onAdd={() => setModal({ open: true, id: null })}
    >
      <ListTable
        testId="announcements-list"
        columns={COLUMNS.map((column) => ({
          id: column,
          label: t(`announcements.columns.${column}`),
          align: column === 'actions' ? 'right' : column === 'title' || column === 'media' ? 'left' : 'center',
        }))}
        rowCount={rows.length}
        loading={list.isPending}
        loadingMore={list.isFetchingNextPage}
        loadMore={{ hasMore: list.hasNextPage, busy: list.isFetching, next: () => void list.fetchNextPage() }}
      >
        {rows.map((record) => (
          <TableRow hover key={record.id} data-testid={`announcement-row-${record.id}`}>
            <TableCell sx={{ maxWidth: 360 }}>
              <Typography variant="body2" noWrap title={record.title} sx={{ fontWeight: 600 }}>
                {record.title}
              </Typography>
            </TableCell>
            <TableCell align="center">
              <PriorityChip priority={record.priority} testId={`announcement-priority-${record.id}`} />
            </TableCell>
            <TableCell data-testid={`announcement-media-${record.id}`} sx={{ maxWidth: 240 }}>
              {record.mediaName ? (
                <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
                  <ImageOutlined fontSize="small" color="action" />
                  <Typography variant="body2" noWrap title={record.mediaName}>
                    {record.mediaName}
                  </Typography>
                </Stack>
              ) : (
                <Typography variant="body2" color="text.secondary">
                  {t('announcements.noMedia')}
                </Typography>
              )}
            </TableCell>
            <TableCell align="center">
              <Chip
                size="small"
                variant="outlined"
                color={record.status ? 'success' : 'default'}
                label={t(record.status ? 'announcements.active' : 'announcements.inactive')}
                data-testid={`announcement-status-${record.id}`}
              />
            </TableCell>
            <TableCell align="right">
              <RowActions
                onEdit={() => setModal({ open: true, id: record.id })}
                editTestId={`announcement-edit-${record.id}`}
                onDelete={() => deletion.ask(record)}
                deleteTestId={`announcement-delete-${record.id}`}
              />
            </TableCell>
          </TableRow>
        ))}
      </ListTable>
      <AnnouncementModal
        open={modal.open && (modal.id === null || editing !== null)}
        record={editing}
        onClose={() => setModal({ open: false })}
      />
      {deletion.dialog}
    </SearchableListPage>
  );
}
