import type { QuickMessage } from '@balcao/shared';
import Add from '@mui/icons-material/Add';
import AttachFile from '@mui/icons-material/AttachFile';
import CheckCircle from '@mui/icons-material/CheckCircle';
import DeleteOutline from '@mui/icons-material/DeleteOutlineOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import Search from '@mui/icons-material/Search';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { keepPreviousData, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { queryKeys } from '../../api/queryKeys';
import { ConfirmationModal } from '../../components/ConfirmationModal';
import { onScrollLoadMore } from '../../components/infiniteScroll';
import { PageContainer } from '../../components/PageContainer';
import { toastError } from '../../components/toastError';
import { useDebouncedValue } from '../../components/useDebouncedValue';
import { QuickMessageModal } from './QuickMessageModal';
import { quickMessagesApi } from './quickMessagesApi';
import { useQuickMessagesRealtime } from './useQuickMessagesRealtime';

type ModalState = { open: false } | { open: true; id: number | null };

const COLUMNS = ['shortcode', 'message', 'geral', 'media', 'actions'] as const;

/** /quick-messages (spec part 2 §2, "Quick messages"). */
export default function QuickMessagesPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  useQuickMessagesRealtime();
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim());
  const [modal, setModal] = useState<ModalState>({ open: false });
  const [deleting, setDeleting] = useState<QuickMessage | null>(null);

  const list = useInfiniteQuery({
    queryKey: queryKeys.quickMessages.list(searchParam),
    queryFn: ({ pageParam }) => quickMessagesApi.list(searchParam, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
    placeholderData: keepPreviousData,
  });

  const remove = useMutation({
    mutationFn: (record: QuickMessage) => quickMessagesApi.remove(record.id),
    onSuccess: () => {
      toast.success(t('quickMessages.deleted'));
      void queryClient.invalidateQueries({ queryKey: queryKeys.quickMessages.all });
      void queryClient.invalidateQueries({ queryKey: queryKeys.messages.quickReplies });
    },
    onError: toastError,
  });

  const rows = list.data?.pages.flatMap((page) => page.records) ?? [];
  const editing = modal.open && modal.id !== null ? (rows.find((r) => r.id === modal.id) ?? null) : null;

  return (
    <PageContainer
      title={t('pages.quickMessages')}
      actions={
        <>
          <TextField
            size="small"
            placeholder={t('quickMessages.searchPlaceholder')}
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            slotProps={{
              htmlInput: { 'data-testid': 'quick-messages-search', 'aria-label': t('common.search') },
              input: {
                startAdornment: (
                  <InputAdornment position="start">
                    <Search fontSize="small" />
                  </InputAdornment>
                ),
              },
            }}
          />
          <Button
            variant="contained"
            startIcon={<Add />}
            onClick={() => setModal({ open: true, id: null })}
            data-testid="quick-messages-add"
          >
            {t('quickMessages.add')}
          </Button>
        </>
      }
    >
      <Paper
        variant="outlined"
        data-testid="quick-messages-list"
        sx={{ flex: 1, minHeight: 240, overflowY: 'auto' }}
        onScroll={onScrollLoadMore(list.hasNextPage, list.isFetching, () => void list.fetchNextPage())}
      >
        <Table stickyHeader size="small" sx={{ '& td, & th': { py: 1.25 } }}>
          <TableHead>
            <TableRow>
              {COLUMNS.map((column) => (
                <TableCell key={column} align={column === 'actions' ? 'right' : column === 'geral' ? 'center' : 'left'}>
                  {t(`quickMessages.columns.${column}`)}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((record) => (
              <TableRow hover key={record.id} data-testid={`quick-message-row-${record.id}`}>
                <TableCell>
                  <Typography variant="body2" sx={{ fontWeight: 600 }}>
                    /{record.shortcode}
                  </Typography>
                </TableCell>
                <TableCell sx={{ maxWidth: 420 }}>
                  <Typography variant="body2" noWrap title={record.message}>
                    {record.message}
                  </Typography>
                </TableCell>
                <TableCell align="center" data-testid={`quick-message-geral-${record.id}`}>
                  {record.geral ? (
                    <CheckCircle color="success" fontSize="small" titleAccess={t('quickMessages.geralYes')} />
                  ) : (
                    <Typography variant="caption" color="text.secondary">
                      {t('quickMessages.geralNo')}
                    </Typography>
                  )}
                </TableCell>
                <TableCell data-testid={`quick-message-media-${record.id}`}>
                  {record.mediaName && (
                    <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
                      <AttachFile fontSize="small" color="action" />
                      <Typography variant="body2" noWrap>
                        {record.mediaName}
                      </Typography>
                    </Stack>
                  )}
                </TableCell>
                <TableCell align="right">
                  <Tooltip title={t('common.edit')}>
                    <IconButton
                      size="small"
                      onClick={() => setModal({ open: true, id: record.id })}
                      data-testid={`quick-message-edit-${record.id}`}
                    >
                      <EditOutlined fontSize="small" />
                    </IconButton>
                  </Tooltip>
                  <Tooltip title={t('common.delete')}>
                    <IconButton
                      size="small"
                      color="error"
                      onClick={() => setDeleting(record)}
                      data-testid={`quick-message-delete-${record.id}`}
                    >
                      <DeleteOutline fontSize="small" />
                    </IconButton>
                  </Tooltip>
                </TableCell>
              </TableRow>
            ))}
            {(list.isPending || list.isFetchingNextPage) &&
              ['first', 'second'].map((row) => (
                <TableRow key={row}>
                  {COLUMNS.map((column) => (
                    <TableCell key={column}>
                      <Skeleton />
                    </TableCell>
                  ))}
                </TableRow>
              ))}
            {!list.isPending && rows.length === 0 && (
              <TableRow>
                <TableCell colSpan={COLUMNS.length} align="center" sx={{ py: 6, color: 'text.secondary' }}>
                  {t('common.noRecords')}
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </Paper>
      <QuickMessageModal
        open={modal.open && (modal.id === null || editing !== null)}
        record={editing}
        onClose={() => setModal({ open: false })}
      />
      <ConfirmationModal
        open={deleting !== null}
        title={t('quickMessages.deleteTitle', { shortcode: deleting?.shortcode ?? '' })}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting)}
      >
        {t('quickMessages.deleteMessage')}
      </ConfirmationModal>
    </PageContainer>
  );
}
