import type { QueueIntegration } from '@balcao/shared';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../../api/queryKeys';
import { useSessionUser } from '../../app/AuthContext';
import { ListTable } from '../../components/ListTable';
import { RowActions } from '../../components/RowActions';
import { SearchableListPage } from '../../components/SearchableListPage';
import { useDeleteConfirmation } from '../../components/useConfirmation';
import { useDebouncedValue } from '../../components/useDebouncedValue';
import { useInfiniteList } from '../../components/useInfiniteList';
import { IntegrationLogo } from './IntegrationLogo';
import { QueueIntegrationModal } from './QueueIntegrationModal';
import { queueIntegrationsApi } from './queueIntegrationsApi';
import { useQueueIntegrationsRealtime } from './useQueueIntegrationsRealtime';

type ModalState = { open: false } | { open: true; id: number | null };

const COLUMNS = ['id', 'name', 'actions'] as const;

/**
 * /queue-integration (spec part 2 §2 "Queue integrations", behind the plan's useIntegrations): the
 * company's typebot, n8n, webhook and Dialogflow integrations. Admins add, edit and delete.
 */
export default function QueueIntegrationsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const user = useSessionUser();
  const admin = user.profile === 'admin' || user.super;
  useQueueIntegrationsRealtime();
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim());
  const [modal, setModal] = useState<ModalState>({ open: false });

  const list = useInfiniteList(queryKeys.queueIntegrations.list(searchParam), (page) =>
    queueIntegrationsApi.list(searchParam, page),
  );

  const deletion = useDeleteConfirmation({
    remove: (record: QueueIntegration) => queueIntegrationsApi.remove(record.id),
    deletedMessage: t('queueIntegrations.deleted'),
    onDeleted: () => void queryClient.invalidateQueries({ queryKey: queryKeys.queueIntegrations.all }),
    title: (record) => t('queueIntegrations.deleteTitle', { name: record.name }),
    message: t('queueIntegrations.deleteMessage'),
  });

  const rows = list.data?.pages.flatMap((page) => page.queueIntegrations) ?? [];
  const count = list.data?.pages[0]?.count;
  const editing = modal.open && modal.id !== null ? (rows.find((r) => r.id === modal.id) ?? null) : null;
  const columns = admin ? COLUMNS : COLUMNS.filter((c) => c !== 'actions');

  return (
    <SearchableListPage
      ns="queueIntegrations"
      title={t('pages.queueIntegration')}
      count={count}
      search={search}
      onSearch={setSearch}
      onAdd={admin ? () => setModal({ open: true, id: null }) : undefined}
    >
      <ListTable
        testId="queueIntegrations-list"
        columns={columns.map((column) => ({
          id: column,
          label: t(`queueIntegrations.columns.${column}`),
          align: column === 'actions' ? 'right' : column === 'id' ? 'center' : 'left',
          width: column === 'id' ? 80 : undefined,
        }))}
        rowCount={rows.length}
        loading={list.isPending}
        loadingMore={list.isFetchingNextPage}
        loadMore={{ hasMore: list.hasNextPage, busy: list.isFetching, next: () => void list.fetchNextPage() }}
        emptyText={t('queueIntegrations.empty')}
      >
        {rows.map((record) => (
          <TableRow hover key={record.id} data-testid={`integration-row-${record.id}`}>
            <TableCell align="center">{record.id}</TableCell>
            <TableCell>
              <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', minWidth: 0 }}>
                <IntegrationLogo type={record.type} title={t(`queueIntegrations.types.${record.type}`)} />
                <Stack sx={{ minWidth: 0 }}>
                  <Typography variant="body2" noWrap title={record.name} sx={{ fontWeight: 600 }}>
                    {record.name}
                  </Typography>
                  <Typography variant="caption" color="text.secondary" data-testid={`integration-type-${record.id}`}>
                    {t(`queueIntegrations.types.${record.type}`)}
                  </Typography>
                </Stack>
              </Stack>
            </TableCell>
            {admin && (
              <TableCell align="right">
                <RowActions
                  onEdit={() => setModal({ open: true, id: record.id })}
                  editTestId={`integration-edit-${record.id}`}
                  onDelete={() => deletion.ask(record)}
                  deleteTestId={`integration-delete-${record.id}`}
                />
              </TableCell>
            )}
          </TableRow>
        ))}
      </ListTable>
      <QueueIntegrationModal
        open={modal.open && (modal.id === null || editing !== null)}
        record={editing}
        onClose={() => setModal({ open: false })}
      />
      {deletion.dialog}
    </SearchableListPage>
  );
}
