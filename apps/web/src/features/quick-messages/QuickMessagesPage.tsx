import type { QuickMessage } from '@balcao/shared';
import Add from '@mui/icons-material/Add';
import AttachFile from '@mui/icons-material/AttachFile';
import CheckCircle from '@mui/icons-material/CheckCircle';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../../api/queryKeys';
import { ListTable } from '../../components/ListTable';
import { PageContainer } from '../../components/PageContainer';
import { RowActions } from '../../components/RowActions';
import { SearchField } from '../../components/SearchField';
import { useDeleteConfirmation } from '../../components/useConfirmation';
import { useDebouncedValue } from '../../components/useDebouncedValue';
import { useInfiniteList } from '../../components/useInfiniteList';
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

  const list = useInfiniteList(queryKeys.quickMessages.list(searchParam), (page) =>
    quickMessagesApi.list(searchParam, page),
  );

  const deletion = useDeleteConfirmation({
    remove: (record: QuickMessage) => quickMessagesApi.remove(record.id),
    deletedMessage: t('quickMessages.deleted'),
    onDeleted: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.quickMessages.all });
      void queryClient.invalidateQueries({ queryKey: queryKeys.messages.quickReplies });
    },
    title: (record) => t('quickMessages.deleteTitle', { shortcode: record.shortcode }),
    message: t('quickMessages.deleteMessage'),
  });

  const rows = list.data?.pages.flatMap((page) => page.records) ?? [];
  const editing = modal.open && modal.id !== null ? (rows.find((r) => r.id === modal.id) ?? null) : null;

  return (
    <PageContainer
      title={t('pages.quickMessages')}
      actions={
        <>
          <SearchField
            value={search}
            onChange={setSearch}
            placeholder={t('quickMessages.searchPlaceholder')}
            testId="quick-messages-search"
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
      <ListTable
        testId="quick-messages-list"
        columns={COLUMNS.map((column) => ({
          id: column,
          label: t(`quickMessages.columns.${column}`),
          align: column === 'actions' ? 'right' : column === 'geral' ? 'center' : 'left',
        }))}
        rowCount={rows.length}
        loading={list.isPending}
        loadingMore={list.isFetchingNextPage}
        loadMore={{ hasMore: list.hasNextPage, busy: list.isFetching, next: () => void list.fetchNextPage() }}
      >
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
              <RowActions
                onEdit={() => setModal({ open: true, id: record.id })}
                editTestId={`quick-message-edit-${record.id}`}
                onDelete={() => deletion.ask(record)}
                deleteTestId={`quick-message-delete-${record.id}`}
              />
            </TableCell>
          </TableRow>
        ))}
      </ListTable>
      <QuickMessageModal
        open={modal.open && (modal.id === null || editing !== null)}
        record={editing}
        onClose={() => setModal({ open: false })}
      />
      {deletion.dialog}
    </PageContainer>
  );
}
