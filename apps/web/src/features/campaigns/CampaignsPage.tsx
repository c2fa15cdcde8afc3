import type { Campaign } from '@balcao/shared';
import Assessment from '@mui/icons-material/AssessmentOutlined';
import PlayCircle from '@mui/icons-material/PlayCircleOutlined';
import StopCircle from '@mui/icons-material/StopCircleOutlined';
import IconButton from '@mui/material/IconButton';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { ListTable } from '../../components/ListTable';
import { RowActions } from '../../components/RowActions';
import { SearchableListPage } from '../../components/SearchableListPage';
import { useDeleteConfirmation } from '../../components/useConfirmation';
import { useDebouncedValue } from '../../components/useDebouncedValue';
import { useInfiniteList } from '../../components/useInfiniteList';
import { CampaignModal } from './CampaignModal';
import { CampaignStatusChip } from './CampaignStatusChip';
import { campaignKeys, campaignsApi } from './campaignsApi';
import { formatCampaignDate, useCompanyTimeZone } from './format';
import { useCampaignActions } from './useCampaignActions';
import { storeCampaign, useCampaignsRealtime } from './useCampaignsRealtime';

type ModalState = { open: false } | { open: true; id: number | null };

const COLUMNS = [
  'name',
  'status',
  'contactList',
  'whatsapp',
  'scheduledAt',
  'completedAt',
  'confirmation',
  'actions',
] as const;

/** An icon button of a row, with its tooltip. */
function RowButton({
  title,
  color,
  icon,
  disabled,
  onClick,
  testId,
}: {
  title: string;
  color: 'warning' | 'success';
  icon: ReactNode;
  disabled: boolean;
  onClick: () => void;
  testId: string;
}) {
  return (
    <Tooltip title={title}>
      <IconButton size="small" color={color} disabled={disabled} onClick={onClick} data-testid={testId}>
        {icon}
      </IconButton>
    </Tooltip>
  );
}

/** The stop, restart and report buttons of a row; stop only while running, restart only once cancelled. */
function LifecycleActions({
  record,
  actions: { cancel, restart, pending },
}: {
  record: Campaign;
  actions: ReturnType<typeof useCampaignActions>;
}) {
  const { t } = useTranslation();
  return (
    <>
      {record.status === 'EM_ANDAMENTO' && (
        <RowButton
          title={t('campaigns.stop')}
          color="warning"
          icon={<StopCircle fontSize="small" />}
          disabled={pending}
          onClick={() => cancel.mutate(record)}
          testId={`campaign-stop-${record.id}`}
        />
      )}
      {record.status === 'CANCELADA' && (
        <RowButton
          title={t('campaigns.restart')}
          color="success"
          icon={<PlayCircle fontSize="small" />}
          disabled={pending}
          onClick={() => restart.mutate(record)}
          testId={`campaign-restart-${record.id}`}
        />
      )}
      <Tooltip title={t('campaigns.report')}>
        <IconButton
          size="small"
          component={RouterLink}
          to={`/campaign/${record.id}/report`}
          data-testid={`campaign-report-${record.id}`}
        >
          <Assessment fontSize="small" />
        </IconButton>
      </Tooltip>
    </>
  );
}

/** /campaigns (spec part 2 §2 "Campaigns", the list). */
export default function CampaignsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const timeZone = useCompanyTimeZone();
  useCampaignsRealtime();
  const actions = useCampaignActions();
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim());
  const [modal, setModal] = useState<ModalState>({ open: false });

  const list = useInfiniteList(campaignKeys.list(searchParam), (page) => campaignsApi.list(searchParam, page));

  const deletion = useDeleteConfirmation({
    remove: (record: Campaign) => campaignsApi.remove(record.id),
    deletedMessage: t('campaigns.deleted'),
    onDeleted: (record) => storeCampaign(queryClient, { action: 'delete', id: record.id }),
    title: (record) => t('campaigns.deleteTitle', { name: record.name }),
    message: t('campaigns.deleteMessage'),
  });

  const rows = list.data?.pages.flatMap((page) => page.records) ?? [];
  const count = list.data?.pages[0]?.count;
  const editing = modal.open && modal.id !== null ? (rows.find((r) => r.id === modal.id) ?? null) : null;

  return (
    <SearchableListPage
      ns="campaigns"
      title={t('pages.campaigns')}
      count={count}
      search={search}
      onSearch={setSearch}
      onAdd={() => setModal({ open: true, id: null })}
    >
      <ListTable
        testId="campaigns-list"
        columns={COLUMNS.map((column) => ({
          id: column,
          label: t(`campaigns.columns.${column}`),
          align: column === 'actions' ? 'right' : column === 'name' ? 'left' : 'center',
        }))}
        rowCount={rows.length}
        loading={list.isPending}
        loadingMore={list.isFetchingNextPage}
        emptyText={t('campaigns.empty')}
        loadMore={{ hasMore: list.hasNextPage, busy: list.isFetching, next: () => void list.fetchNextPage() }}
      >
        {rows.map((record) => (
          <TableRow hover key={record.id} data-testid={`campaign-row-${record.id}`}>
            <TableCell>
              <Typography variant="body2" sx={{ fontWeight: 600 }} data-testid={`campaign-name-${record.id}`}>
                {record.name}
              </Typography>
            </TableCell>
            <TableCell align="center">
              <CampaignStatusChip status={record.status} testId={`campaign-status-${record.id}`} />
            </TableCell>
            <TableCell align="center" data-testid={`campaign-contact-list-${record.id}`}>
              {record.contactList?.name ?? t('campaigns.noContactList')}
            </TableCell>
            <TableCell align="center" data-testid={`campaign-connection-${record.id}`}>
              {record.whatsapp?.name ?? t('campaigns.noConnection')}
            </TableCell>
            <TableCell align="center" sx={{ whiteSpace: 'nowrap' }} data-testid={`campaign-scheduled-at-${record.id}`}>
              {record.scheduledAt ? formatCampaignDate(record.scheduledAt, timeZone) : t('campaigns.notScheduled')}
            </TableCell>
            <TableCell align="center" sx={{ whiteSpace: 'nowrap' }} data-testid={`campaign-completed-at-${record.id}`}>
              {record.completedAt ? formatCampaignDate(record.completedAt, timeZone) : t('campaigns.notCompleted')}
            </TableCell>
            <TableCell align="center" data-testid={`campaign-confirmation-${record.id}`}>
              {t(record.confirmation ? 'campaigns.enabled' : 'campaigns.disabled')}
            </TableCell>
            <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
              <LifecycleActions record={record} actions={actions} />
              <RowActions
                onEdit={() => setModal({ open: true, id: record.id })}
                editTestId={`campaign-edit-${record.id}`}
                onDelete={() => deletion.ask(record)}
                deleteTestId={`campaign-delete-${record.id}`}
              />
            </TableCell>
          </TableRow>
        ))}
      </ListTable>
      <CampaignModal
        open={modal.open && (modal.id === null || editing !== null)}
        record={editing}
        onClose={() => setModal({ open: false })}
      />
      {deletion.dialog}
    </SearchableListPage>
  );
}
