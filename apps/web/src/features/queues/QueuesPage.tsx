import { can, type Queue } from '@balcao/shared';
import Add from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutlineOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { queryKeys } from '../../api/queryKeys';
import { useSessionUser } from '../../app/AuthContext';
import { ConfirmationModal } from '../../components/ConfirmationModal';
import { PageContainer } from '../../components/PageContainer';
import { toastError } from '../../components/toastError';
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
  const [deleting, setDeleting] = useState<Queue | null>(null);
  // Queue changes are admin calls on the server; the admin menu is where this page is linked.
  const manage = can(me.profile, 'drawer-admin-items:view');

  const remove = useMutation({
    mutationFn: (queue: Queue) => queuesApi.remove(queue.id),
    onSuccess: (_reply, queue) => {
      toast.success(t('queues.deleted'));
      queryClient.setQueryData<Queue[]>(queryKeys.queues, (list) =>
        applyQueueEvent(list, { action: 'delete', queueId: queue.id }),
      );
    },
    onError: toastError,
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
      <Paper variant="outlined" data-testid="queues-list" sx={{ flex: 1, minHeight: 240, overflowY: 'auto' }}>
        <Table stickyHeader size="small" sx={{ '& td, & th': { py: 1.25 } }}>
          <TableHead>
            <TableRow>
              {columns.map((column) => (
                <TableCell key={column} align={column === 'actions' ? 'right' : 'left'}>
                  {t(`queues.columns.${column}`)}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
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
                    <Tooltip title={t('common.edit')}>
                      <IconButton
                        size="small"
                        onClick={() => setModal({ open: true, queueId: queue.id })}
                        data-testid={`queue-edit-${queue.id}`}
                      >
                        <EditOutlined fontSize="small" />
                      </IconButton>
                    </Tooltip>
                    <Tooltip title={t('common.delete')}>
                      <IconButton
                        size="small"
                        color="error"
                        onClick={() => setDeleting(queue)}
                        data-testid={`queue-delete-${queue.id}`}
                      >
                        <DeleteOutline fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  </TableCell>
                )}
              </TableRow>
            ))}
            {queues.isPending &&
              ['first', 'second'].map((row) => (
                <TableRow key={row}>
                  {columns.map((column) => (
                    <TableCell key={column}>
                      <Skeleton />
                    </TableCell>
                  ))}
                </TableRow>
              ))}
            {!queues.isPending && rows.length === 0 && (
              <TableRow>
                <TableCell colSpan={columns.length} align="center" sx={{ py: 6, color: 'text.secondary' }}>
                  {t('common.noRecords')}
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </Paper>
      <QueueModal
        open={modal.open && (modal.queueId === null || editing !== null)}
        queue={editing}
        onClose={() => setModal({ open: false })}
      />
      <ConfirmationModal
        open={deleting !== null}
        title={t('queues.deleteTitle', { name: deleting?.name ?? '' })}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting)}
      >
        {t('queues.deleteMessage')}
      </ConfirmationModal>
    </PageContainer>
  );
}
