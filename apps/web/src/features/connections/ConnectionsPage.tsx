import { type ConnectionStatus, can, type Whatsapp } from '@balcao/shared';
import Add from '@mui/icons-material/Add';
import CheckCircle from '@mui/icons-material/CheckCircle';
import CropFree from '@mui/icons-material/CropFree';
import DeleteOutline from '@mui/icons-material/DeleteOutlineOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import SignalCellular4Bar from '@mui/icons-material/SignalCellular4Bar';
import SignalCellularConnectedNoInternet0Bar from '@mui/icons-material/SignalCellularConnectedNoInternet0Bar';
import SignalCellularConnectedNoInternet2Bar from '@mui/icons-material/SignalCellularConnectedNoInternet2Bar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
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
import { type ReactElement, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { queryKeys } from '../../api/queryKeys';
import { useSessionUser } from '../../app/AuthContext';
import { ConfirmationModal } from '../../components/ConfirmationModal';
import { PageContainer } from '../../components/PageContainer';
import { toastError } from '../../components/toastError';
import { ConnectionModal } from './ConnectionModal';
import { connectionsApi, useWhatsapps } from './connectionsApi';
import { formatDateTime } from './connectionsCache';
import { QrCodeModal } from './QrCodeModal';
import { useConnectionsRealtime } from './useConnectionsRealtime';

type SessionAction = 'start' | 'newQr' | 'disconnect';
type Confirm = { kind: 'delete' | 'disconnect'; whatsapp: Whatsapp } | null;
type ModalState = { open: false } | { open: true; whatsappId: number | null };

const COLUMNS = ['name', 'status', 'session', 'lastUpdate', 'default', 'actions'] as const;

/** Statuses that carry an explanatory tooltip (spec §2): the tooltip keys under connections.tooltips. */
const TOOLTIP_OF: Partial<Record<ConnectionStatus, string>> = {
  DISCONNECTED: 'disconnected',
  qrcode: 'qrcode',
  CONNECTED: 'connected',
  TIMEOUT: 'timeout',
  PAIRING: 'timeout',
};

function StatusIcon({ status }: { status: ConnectionStatus }) {
  switch (status) {
    case 'CONNECTED':
      return <SignalCellular4Bar color="success" />;
    case 'DISCONNECTED':
      return <SignalCellularConnectedNoInternet0Bar color="error" />;
    case 'qrcode':
      return <CropFree color="primary" />;
    case 'OPENING':
      return <CircularProgress size={22} />;
    default:
      return <SignalCellularConnectedNoInternet2Bar color="warning" />;
  }
}

function StatusCell({ whatsapp }: { whatsapp: Whatsapp }) {
  const { t } = useTranslation();
  const key = TOOLTIP_OF[whatsapp.status];
  const icon: ReactElement = (
    <Box
      component="span"
      sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}
      data-testid={`connection-status-${whatsapp.id}`}
      data-status={whatsapp.status}
    >
      <StatusIcon status={whatsapp.status} />
      <Typography variant="caption" color="text.secondary">
        {t(`connections.statuses.${whatsapp.status}`)}
      </Typography>
    </Box>
  );
  if (!key) return icon;
  return (
    <Tooltip
      title={
        <>
          <Typography variant="subtitle2">{t(`connections.tooltips.${key}.title`)}</Typography>
          <Typography variant="body2">{t(`connections.tooltips.${key}.content`)}</Typography>
        </>
      }
    >
      {icon}
    </Tooltip>
  );
}

function SessionButtons({
  whatsapp,
  onQrCode,
  onAction,
  onDisconnect,
  busy,
}: {
  whatsapp: Whatsapp;
  onQrCode: () => void;
  onAction: (action: SessionAction) => void;
  onDisconnect: () => void;
  busy: boolean;
}) {
  const { t } = useTranslation();
  const id = whatsapp.id;
  switch (whatsapp.status) {
    case 'qrcode':
      return (
        <Button size="small" variant="contained" onClick={onQrCode} data-testid={`connection-qrcode-${id}`}>
          {t('connections.buttons.qrcode')}
        </Button>
      );
    case 'DISCONNECTED':
      return (
        <Stack direction="row" spacing={1} sx={{ justifyContent: 'center' }}>
          <Button
            size="small"
            variant="outlined"
            disabled={busy}
            onClick={() => onAction('start')}
            data-testid={`connection-retry-${id}`}
          >
            {t('connections.buttons.tryAgain')}
          </Button>
          <Button
            size="small"
            variant="outlined"
            color="secondary"
            disabled={busy}
            onClick={() => onAction('newQr')}
            data-testid={`connection-newqr-${id}`}
          >
            {t('connections.buttons.newQr')}
          </Button>
        </Stack>
      );
    case 'CONNECTED':
    case 'PAIRING':
    case 'TIMEOUT':
      return (
        <Button
          size="small"
          variant="outlined"
          color="error"
          disabled={busy}
          onClick={onDisconnect}
          data-testid={`connection-disconnect-${id}`}
        >
          {t('connections.buttons.disconnect')}
        </Button>
      );
    case 'OPENING':
      return (
        <Button size="small" variant="outlined" disabled data-testid={`connection-connecting-${id}`}>
          {t('connections.buttons.connecting')}
        </Button>
      );
  }
}

function SkeletonRows() {
  return ['first', 'second'].map((row) => (
    <TableRow key={row}>
      {COLUMNS.map((column) => (
        <TableCell key={column}>
          <Skeleton />
        </TableCell>
      ))}
    </TableRow>
  ));
}

/** /connections: the company's messaging connections and their sessions (spec §2, "Connections screen"). */
export default function ConnectionsPage() {
  const { t } = useTranslation();
  const me = useSessionUser();
  const queryClient = useQueryClient();
  const whatsapps = useWhatsapps();
  useConnectionsRealtime();
  const [modal, setModal] = useState<ModalState>({ open: false });
  const [qrFor, setQrFor] = useState<number | null>(null);
  const [confirm, setConfirm] = useState<Confirm>(null);
  const sessionButtons = can(me.profile, 'connections-page:actionButtons');
  const editOrDelete = can(me.profile, 'connections-page:editOrDeleteConnection');
  const canAdd = can(me.profile, 'connections-page:addConnection');

  const session = useMutation({
    mutationFn: ({ id, action }: { id: number; action: SessionAction }) =>
      action === 'start'
        ? connectionsApi.startSession(id)
        : action === 'newQr'
          ? connectionsApi.newQrCode(id)
          : connectionsApi.disconnect(id),
    onError: toastError,
  });

  const remove = useMutation({
    mutationFn: (w: Whatsapp) => connectionsApi.remove(w.id),
    onSuccess: (_reply, w) => {
      toast.success(t('connections.deleted'));
      queryClient.setQueryData<Whatsapp[]>(queryKeys.whatsapps, (list) => list?.filter((x) => x.id !== w.id));
      void queryClient.invalidateQueries({ queryKey: queryKeys.whatsapps });
    },
    onError: toastError,
  });

  const rows = whatsapps.data ?? [];
  const editing =
    modal.open && modal.whatsappId !== null ? (rows.find((w) => w.id === modal.whatsappId) ?? null) : null;

  return (
    <PageContainer
      title={t('pages.connections')}
      actions={
        canAdd && (
          <Button
            variant="contained"
            startIcon={<Add />}
            onClick={() => setModal({ open: true, whatsappId: null })}
            data-testid="connections-add"
          >
            {t('connections.add')}
          </Button>
        )
      }
    >
      <Paper variant="outlined" data-testid="connections-list" sx={{ flex: 1, minHeight: 240, overflowY: 'auto' }}>
        <Table stickyHeader size="small" sx={{ '& td, & th': { py: 1.25 } }}>
          <TableHead>
            <TableRow>
              {COLUMNS.filter((c) => c !== 'actions' || editOrDelete).map((column) => (
                <TableCell key={column} align={column === 'name' ? 'left' : 'center'}>
                  {t(`connections.columns.${column}`)}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((w) => (
              <TableRow hover key={w.id} data-testid={`connection-row-${w.id}`}>
                <TableCell>
                  <Typography variant="body2" sx={{ fontWeight: 600 }}>
                    {w.name}
                  </Typography>
                  <Typography variant="caption" color="text.secondary">
                    {t(`connections.providers.${w.provider}`)}
                    {w.number ? ` · ${w.number}` : ''}
                  </Typography>
                </TableCell>
                <TableCell align="center">
                  <StatusCell whatsapp={w} />
                </TableCell>
                <TableCell align="center" data-testid={`connection-session-${w.id}`}>
                  {sessionButtons && (
                    <SessionButtons
                      whatsapp={w}
                      busy={session.isPending && session.variables?.id === w.id}
                      onQrCode={() => setQrFor(w.id)}
                      onAction={(action) => session.mutate({ id: w.id, action })}
                      onDisconnect={() => setConfirm({ kind: 'disconnect', whatsapp: w })}
                    />
                  )}
                </TableCell>
                <TableCell align="center" data-testid={`connection-updated-${w.id}`}>
                  {formatDateTime(w.updatedAt)}
                </TableCell>
                <TableCell align="center">
                  {w.isDefault && (
                    <CheckCircle
                      color="success"
                      fontSize="small"
                      titleAccess={t('connections.default')}
                      data-testid={`connection-default-${w.id}`}
                    />
                  )}
                </TableCell>
                {editOrDelete && (
                  <TableCell align="center">
                    <Tooltip title={t('common.edit')}>
                      <IconButton
                        size="small"
                        onClick={() => setModal({ open: true, whatsappId: w.id })}
                        data-testid={`connection-edit-${w.id}`}
                      >
                        <EditOutlined fontSize="small" />
                      </IconButton>
                    </Tooltip>
                    <Tooltip title={t('common.delete')}>
                      <IconButton
                        size="small"
                        color="error"
                        onClick={() => setConfirm({ kind: 'delete', whatsapp: w })}
                        data-testid={`connection-delete-${w.id}`}
                      >
                        <DeleteOutline fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  </TableCell>
                )}
              </TableRow>
            ))}
            {whatsapps.isPending && <SkeletonRows />}
            {!whatsapps.isPending && rows.length === 0 && (
              <TableRow>
                <TableCell colSpan={COLUMNS.length} align="center" sx={{ py: 6, color: 'text.secondary' }}>
                  {t('connections.empty')}
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </Paper>
      <ConnectionModal
        open={modal.open && (modal.whatsappId === null || editing !== null)}
        whatsapp={editing}
        onClose={() => setModal({ open: false })}
      />
      <QrCodeModal open={qrFor !== null} whatsappId={qrFor} onClose={() => setQrFor(null)} />
      <ConfirmationModal
        open={confirm !== null}
        title={t(confirm?.kind === 'disconnect' ? 'connections.disconnectTitle' : 'connections.deleteTitle', {
          name: confirm?.whatsapp.name ?? '',
        })}
        onClose={() => setConfirm(null)}
        onConfirm={() => {
          if (!confirm) return;
          if (confirm.kind === 'delete') remove.mutate(confirm.whatsapp);
          else session.mutate({ id: confirm.whatsapp.id, action: 'disconnect' });
        }}
      >
        {t(confirm?.kind === 'disconnect' ? 'connections.disconnectMessage' : 'connections.deleteMessage')}
      </ConfirmationModal>
    </PageContainer>
  );
}
