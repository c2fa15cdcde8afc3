import type { Schedule } from '@balcao/shared';
import Add from '@mui/icons-material/Add';
import Button from '@mui/material/Button';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { queryKeys } from '../../api/queryKeys';
import { ListTable } from '../../components/ListTable';
import { PageContainer } from '../../components/PageContainer';
import { RowActions } from '../../components/RowActions';
import { SearchField } from '../../components/SearchField';
import { useDeleteConfirmation } from '../../components/useConfirmation';
import { useDebouncedValue } from '../../components/useDebouncedValue';
import { useInfiniteList } from '../../components/useInfiniteList';
import { formatSendAt, truncateBody } from './format';
import { ScheduleModal } from './ScheduleModal';
import { schedulesApi } from './schedulesApi';
import { useSchedulesLive } from './useSchedulesLive';

type ModalState = { open: false } | { open: true; id: number | null };

const COLUMNS = ['contact', 'body', 'sendAt', 'connection', 'status', 'actions'] as const;

function StatusCell({ schedule }: { schedule: Schedule }) {
  const { t } = useTranslation();
  const label = t(`schedules.status.${schedule.status}`);
  const text = (
    <Typography
      variant="body2"
      color={schedule.status === 'ERRO' ? 'error' : undefined}
      data-testid={`schedule-status-${schedule.id}`}
      component="span"
    >
      {label}
    </Typography>
  );
  if (schedule.status !== 'ERRO') return text;
  return (
    <Tooltip title={t('schedules.errorDetail', { error: schedule.lastError ?? '—', attempts: schedule.attempts })}>
      {text}
    </Tooltip>
  );
}

/** /schedules (spec part 2 §2, "Schedules"); `?contactId=N` opens a new schedule for that contact. */
export default function SchedulesPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  useSchedulesLive();
  const [params, setParams] = useSearchParams();
  const linkedId = Number(params.get('contactId'));
  const linkedContactId = Number.isInteger(linkedId) && linkedId > 0 ? linkedId : null;
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim());
  const [modal, setModal] = useState<ModalState>({ open: false });

  const linkedContact = useQuery({
    queryKey: queryKeys.schedules.contact(linkedContactId ?? 0),
    queryFn: () => schedulesApi.contact(linkedContactId ?? 0),
    enabled: linkedContactId !== null,
  });

  const list = useInfiniteList(queryKeys.schedules.list(searchParam), (page) => schedulesApi.list(searchParam, page));

  const deletion = useDeleteConfirmation({
    remove: (record: Schedule) => schedulesApi.remove(record.id),
    deletedMessage: t('schedules.deleted'),
    onDeleted: () => void queryClient.invalidateQueries({ queryKey: queryKeys.schedules.all }),
    title: () => t('schedules.deleteTitle'),
    message: t('schedules.deleteMessage'),
  });

  const rows = list.data?.pages.flatMap((page) => page.schedules) ?? [];
  const editing = modal.open && modal.id !== null ? (rows.find((r) => r.id === modal.id) ?? null) : null;
  const linkedOpen = linkedContactId !== null && linkedContact.data !== undefined;

  const close = () => {
    setModal({ open: false });
    if (linkedContactId !== null)
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.delete('contactId');
          return next;
        },
        { replace: true },
      );
  };

  return (
    <PageContainer
      title={t('pages.schedules')}
      actions={
        <>
          <SearchField
            value={search}
            onChange={setSearch}
            placeholder={t('schedules.searchPlaceholder')}
            testId="schedules-search"
          />
          <Button
            variant="contained"
            startIcon={<Add />}
            onClick={() => setModal({ open: true, id: null })}
            data-testid="schedules-add"
          >
            {t('schedules.add')}
          </Button>
        </>
      }
    >
      <ListTable
        testId="schedules-list"
        columns={COLUMNS.map((column) => ({
          id: column,
          label: t(`schedules.columns.${column}`),
          align: column === 'actions' ? 'right' : 'left',
        }))}
        rowCount={rows.length}
        loading={list.isPending}
        loadingMore={list.isFetchingNextPage}
        emptyText={t('schedules.empty')}
        loadMore={{ hasMore: list.hasNextPage, busy: list.isFetching, next: () => void list.fetchNextPage() }}
      >
        {rows.map((record) => (
          <TableRow hover key={record.id} data-testid={`schedule-row-${record.id}`}>
            <TableCell data-testid={`schedule-contact-${record.id}`}>{record.contact.name}</TableCell>
            <TableCell>
              <Tooltip title={record.body}>
                <Typography variant="body2" component="span" data-testid={`schedule-body-${record.id}`}>
                  {truncateBody(record.body)}
                </Typography>
              </Tooltip>
            </TableCell>
            <TableCell data-testid={`schedule-send-at-${record.id}`}>{formatSendAt(record.sendAt)}</TableCell>
            <TableCell data-testid={`schedule-connection-${record.id}`}>
              {record.whatsapp?.name ?? t('schedules.defaultConnection')}
            </TableCell>
            <TableCell>
              <StatusCell schedule={record} />
            </TableCell>
            <TableCell align="right">
              <RowActions
                onEdit={() => setModal({ open: true, id: record.id })}
                editTestId={`schedule-edit-${record.id}`}
                onDelete={() => deletion.ask(record)}
                deleteTestId={`schedule-delete-${record.id}`}
              />
            </TableCell>
          </TableRow>
        ))}
      </ListTable>
      <ScheduleModal
        open={linkedOpen || (modal.open && (modal.id === null || editing !== null))}
        record={modal.open ? editing : null}
        contact={linkedOpen && !modal.open ? linkedContact.data : null}
        onClose={close}
      />
      {deletion.dialog}
    </PageContainer>
  );
}
