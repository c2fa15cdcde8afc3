import { can, type Queue } from '@balcao/shared';
import Add from '@mui/icons-material/Add';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
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
import { PageContainer } from '../../components/PageContainer';
import { RowActions } from '../../components/RowActions';
import { useDeleteConfirmation } from '../../components/useConfirmation';
import { QueueModal } from './QueueModal';
import { queuesApi, useQueues } from './queuesApi';
import { applyQueueEvent } from './queuesCache';
import { useQueuesRealtime } from './useQueuesRealtime';

type ModalState = { open: false } | { open: true; queueId: number | null };

const COLUMNS = ['name', 'color', 'greeting', 'actions'] as const;

/** /queues: the company's queues, their hours and chatbot options (spec part 2 §2, "Queues"). */
export default function QueuesPage() {
  const { t } = useTranslation();
  const me = useSessionUser();
  const queryClient = useQueryClient();
  const queues = useQueues();
  useQueuesRealtime();
  const [modal, setModal] = useState<ModalState>({ open: false });
  // Queue changes are admin calls on the server; the admin menu is where this page is linked.
  const manage = can(me.profile, 'drawer-admin-items:view');

  const deletion = useDeleteConfirmation({
    remove: (queue: Queue) => queuesApi.remove(queue.id),
    deletedMessage: t('queues.deleted'),
    onDeleted: (queue) =>
      queryClient.setQueryData<Queue[]>(queryKeys.queues, (list) =>
        applyQueueEvent(list, { action: 'delete', queueId: queue.id }),
      ),
    title: (queue) => t('queues.deleteTitle', { name: queue.name }),
    message: t('queues.deleteMessage'),
  });

  const rows = queues.data ?? [];
  const editing = modal.open && modal.queueId !== null ? (rows.find((q) => q.id === modal.queueId) ?? null) : null;
  const columns = COLUMNS.filter((c) => c !== 'actions' || manage);

  return (
    <PageContainer
      title={t('pages.queues')}
      actions={
        manage && (
          <Button
            variant="contained"
            startIcon={<Add />}
            onClick={() => setModal({ open: true, queueId: null })}
            data-testid="queues-add"
          >
            {t('queues.add')}
          </Button>
        )
      }
    >
      <ListTable
        testId="queues-list"
        columns={columns.map((column) => ({
          id: column,
          label: t(`queues.columns.${column}`),
          align: column === 'actions' ? 'right' : 'left',
        }))}
        rowCount={rows.length}
        loading={queues.isPending}
      >
        {rows.map((queue) => (
          <TableRow hover key={queue.id} data-testid={`queue-row-${queue.id}`}>
            <TableCell>
              <Typography variant="body2" sx={{ fontWeight: 600 }}>
                {queue.name}
              </Typography>
            </TableCell>
            <TableCell>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <Box
                  data-testid={`queue-swatch-${queue.id}`}
                  sx={{
                    width: 60,
                    height: 20,
                    borderRadius: 1,
                    bgcolor: queue.color,
                    border: 1,
                    borderColor: 'divider',
                  }}
                />
                <Typography variant="caption" color="text.secondary">
                  {queue.color}
                </Typography>
              </Stack>
            </TableCell>
            <TableCell sx={{ maxWidth: 360 }}>
              <Typography variant="body2" noWrap title={queue.greetingMessage}>
                {queue.greetingMessage}
              </Typography>
            </TableCell>
            {manage && (
              <TableCell align="right">
                <RowActions
                  onEdit={() => setModal({ open: true, queueId: queue.id })}
                  editTestId={`queue-edit-${queue.id}`}
                  onDelete={() => deletion.ask(queue)}
                  deleteTestId={`queue-delete-${queue.id}`}
                />
              </TableCell>
            )}
          </TableRow>
        ))}
      </ListTable>
      <QueueModal
        open={modal.open && (modal.queueId === null || editing !== null)}
        queue={editing}
        onClose={() => setModal({ open: false })}
      />
      {deletion.dialog}
    </PageContainer>
  );
}
