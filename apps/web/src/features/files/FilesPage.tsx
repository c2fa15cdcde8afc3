import type { FileList } from '@balcao/shared';
import Add from '@mui/icons-material/Add';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
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
import { FileListModal } from './FileListModal';
import { filesApi } from './filesApi';
import { useFilesRealtime } from './useFilesRealtime';

type ModalState = { open: false } | { open: true; id: number | null };

const COLUMNS = ['name', 'message', 'options', 'actions'] as const;

/** /files (spec part 2 §2 "Files"): the company's file lists. */
export default function FilesPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  useFilesRealtime();
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim());
  const [modal, setModal] = useState<ModalState>({ open: false });

  const list = useInfiniteList(queryKeys.fileLists.list(searchParam), (page) => filesApi.list(searchParam, page));

  const deletion = useDeleteConfirmation({
    remove: (record: FileList) => filesApi.remove(record.id),
    deletedMessage: t('fileLists.deleted'),
    onDeleted: () => void queryClient.invalidateQueries({ queryKey: queryKeys.fileLists.all }),
    title: (record) => t('fileLists.deleteTitle', { name: record.name }),
    message: t('fileLists.deleteMessage'),
  });

  const rows = list.data?.pages.flatMap((page) => page.files) ?? [];
  const count = list.data?.pages[0]?.count;
  const editing = modal.open && modal.id !== null ? (rows.find((r) => r.id === modal.id) ?? null) : null;

  return (
    <PageContainer
      title={
        <>
          {t('pages.files')}
          {count !== undefined && (
            <Chip
              size="small"
              label={t('fileLists.count', { count })}
              sx={{ ml: 1.5, verticalAlign: 'middle' }}
              data-testid="files-count"
            />
          )}
        </>
      }
      actions={
        <>
          <SearchField
            value={search}
            onChange={setSearch}
            placeholder={t('fileLists.searchPlaceholder')}
            testId="files-search"
          />
          <Button
            variant="contained"
            startIcon={<Add />}
            onClick={() => setModal({ open: true, id: null })}
            data-testid="files-add"
          >
            {t('fileLists.add')}
          </Button>
        </>
      }
    >
      <ListTable
        testId="files-list"
        columns={COLUMNS.map((column) => ({
          id: column,
          label: t(`fileLists.columns.${column}`),
          align: column === 'actions' ? 'right' : column === 'options' ? 'center' : 'left',
        }))}
        rowCount={rows.length}
        loading={list.isPending}
        loadingMore={list.isFetchingNextPage}
        loadMore={{ hasMore: list.hasNextPage, busy: list.isFetching, next: () => void list.fetchNextPage() }}
      >
        {rows.map((record) => (
          <TableRow hover key={record.id} data-testid={`file-list-row-${record.id}`}>
            <TableCell>
              <Typography variant="body2" sx={{ fontWeight: 600 }}>
                {record.name}
              </Typography>
            </TableCell>
            <TableCell sx={{ maxWidth: 420 }}>
              <Typography variant="body2" noWrap title={record.message}>
                {record.message}
              </Typography>
            </TableCell>
            <TableCell align="center" data-testid={`file-list-options-${record.id}`}>
              {record.options.length}
            </TableCell>
            <TableCell align="right">
              <RowActions
                onEdit={() => setModal({ open: true, id: record.id })}
                editTestId={`file-list-edit-${record.id}`}
                onDelete={() => deletion.ask(record)}
                deleteTestId={`file-list-delete-${record.id}`}
              />
            </TableCell>
          </TableRow>
        ))}
      </ListTable>
      <FileListModal
        open={modal.open && (modal.id === null || editing !== null)}
        record={editing}
        onClose={() => setModal({ open: false })}
      />
      {deletion.dialog}
    </PageContainer>
  );
}
