import { type ConnectionStatus, can, type Whatsapp } from '@balcao/shared';
import Add from '@mui/icons-material/Add';
import CheckCircle from '@mui/icons-material/CheckCircle';
import CropFree from '@mui/icons-material/CropFree';
import FiberNew from '@mui/icons-material/FiberNew';
import SignalCellular4Bar from '@mui/icons-material/SignalCellular4Bar';
import SignalCellularConnectedNoInternet0Bar from '@mui/icons-material/SignalCellularConnectedNoInternet0Bar';
import SignalCellularConnectedNoInternet2Bar from '@mui/icons-material/SignalCellularConnectedNoInternet2Bar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ReactElement, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../../api/queryKeys';
import { useSessionUser } from '../../app/AuthContext';
import { ListTable } from '../../components/ListTable';
import { PageContainer } from '../../components/PageContainer';
import { RowActions } from '../../components/RowActions';
import { toastError } from '../../components/toastError';
import { useConfirmation, useDeleteConfirmation } from '../../components/useConfirmation';
import { ConnectionModal } from './ConnectionModal';
import { connectionsApi, useWhatsapps } from './connectionsApi';
import { formatDateTime } from './connectionsCache';
import { FIRST_ACTION, isNewConnection } from './firstAction';
import { QrCodeModal } from './QrCodeModal';
import { SandboxLink } from './SandboxLink';
import { useConnectionsRealtime } from './useConnectionsRealtime';

type SessionAction = 'start' | 'newQr' | 'disconnect';
type ModalState = { open: false } | { open: true; whatsappId: number | null };

const COLUMNS = ['name', 'status', 'session', 'lastUpdate', 'default', 'actions'] as const;

/** Statuses that carry an explanatory tooltip (spec §2): the tooltip keys under connections.tooltips. */
const TOOLTIP_OF: Partial<Record<ConnectionStatus, string>> = {
  DISCONNECTED: 'disconnected',
  qrcode: 'qrcode',
  CONNECTED: 'connected',
  TIMEOUT: 'timeout',
  PAIRING: 'pairing',
};

function StatusIcon({ status, fresh }: { status: ConnectionStatus; fresh: boolean }) {
  if (fresh) return <FiberNew color="info" />;
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
  const fresh = isNewConnection(whatsapp);
  // A connection that never connected has not failed: no "disconnected" alarm nor its tooltip.
  const key = fresh ? undefined : TOOLTIP_OF[whatsapp.status];
  const icon: ReactElement = (
    <Box
      component="span"
      sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}
      data-testid={`connection-status-${whatsapp.id}`}
      data-status={whatsapp.status}
    >
      <StatusIcon status={whatsapp.status} fresh={fresh} />
      <Typography variant="caption" color="text.secondary">
        {fresh ? t('connections.newStatus') : t(`connections.statuses.${whatsapp.status}`)}
      </Typography>
      {whatsapp.status === 'PAIRING' && whatsapp.qrcode && (
        <Typography
          variant="body2"
          sx={{ fontFamily: 'monospace', fontWeight: 700, letterSpacing: 2 }}
          data-testid={`connection-pairing-code-${whatsapp.id}`}
        >
          {whatsapp.qrcode}
        </Typography>
      )}
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
  onAwaitQrCode,
  onAction,
  onDisconnect,
  busy,
}: {
  whatsapp: Whatsapp;
  onQrCode: () => void;
  /** After the first "QR code" click: show the code once the session has produced it. */
  onAwaitQrCode: () => void;
  onAction: (action: SessionAction) => void;
  onDisconnect: () => void;
  busy: boolean;
}) {
  const { t } = useTranslation();
  const id = whatsapp.id;
  if (isNewConnection(whatsapp)) {
    const action = FIRST_ACTION[whatsapp.provider];
    return (
      <Button
        size="small"
        variant="contained"
        disabled={busy}
        onClick={() => {
          onAction('start');
          if (action === 'qrcode') onAwaitQrCode();
        }}
        data-testid={`connection-first-action-${id}`}
        data-action={action}
      >
        {t(`connections.buttons.first.${action}`)}
      </Button>
    );
  }
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

/** /connections: the company's messaging connections and their sessions (spec §2, "Connections screen"). */
export default function ConnectionsPage() {
  const { t } = useTranslation();
  const me = useSessionUser();
  const queryClient = useQueryClient();
  const whatsapps = useWhatsapps();
  useConnectionsRealtime();
  const [modal, setModal] = useState<ModalState>({ open: false });
  const [qrFor, setQrFor] = useState<number | null>(null);
  const [awaitingQr, setAwaitingQr] = useState<number | null>(null);
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

  const deletion = useDeleteConfirmation({
    remove: (w: Whatsapp) => connectionsApi.remove(w.id),
    deletedMessage: t('connections.deleted'),
    onDeleted: (w) => {
      queryClient.setQueryData<Whatsapp[]>(queryKeys.whatsapps, (list) => list?.filter((x) => x.id !== w.id));
      void queryClient.invalidateQueries({ queryKey: queryKeys.whatsapps });
    },
    title: (w) => t('connections.deleteTitle', { name: w.name }),
    message: t('connections.deleteMessage'),
  });

  const disconnection = useConfirmation({
    title: (w: Whatsapp) => t('connections.disconnectTitle', { name: w.name }),
    message: t('connections.disconnectMessage'),
    onConfirm: (w) => session.mutate({ id: w.id, action: 'disconnect' }),
  });

  const rows = whatsapps.data ?? [];
  // Not opened at the click: the QR modal closes on the session's first (code-less) update.
  const awaitedStatus = rows.find((w) => w.id === awaitingQr)?.status;
  useEffect(() => {
    if (awaitingQr === null || awaitedStatus !== 'qrcode') return;
    setQrFor(awaitingQr);
    setAwaitingQr(null);
  }, [awaitingQr, awaitedStatus]);
  const editing =
    modal.open && modal.whatsappId !== null ? (rows.find((w) => w.id === modal.whatsappId) ?? null) : null;

  return (
    <PageContainer
      title={t('pages.connections')}
      actions={
        <Stack direction="row" spacing={1}>
          <SandboxLink connections={rows} />
          {canAdd && (
            <Button
              variant="contained"
              startIcon={<Add />}
              onClick={() => setModal({ open: true, whatsappId: null })}
              data-testid="connections-add"
            >
              {t('connections.add')}
            </Button>
          )}
        </Stack>
      }
    >
      <ListTable
        testId="connections-list"
        columns={COLUMNS.filter((c) => c !== 'actions' || editOrDelete).map((column) => ({
          id: column,
          label: t(`connections.columns.${column}`),
          align: column === 'name' ? 'left' : 'center',
        }))}
        rowCount={rows.length}
        loading={whatsapps.isPending}
        emptyText={t('connections.empty')}
      >
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
                  onAwaitQrCode={() => setAwaitingQr(w.id)}
                  onAction={(action) => session.mutate({ id: w.id, action })}
                  onDisconnect={() => disconnection.ask(w)}
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
                <RowActions
                  onEdit={() => setModal({ open: true, whatsappId: w.id })}
                  editTestId={`connection-edit-${w.id}`}
                  onDelete={() => deletion.ask(w)}
                  deleteTestId={`connection-delete-${w.id}`}
                />
              </TableCell>
            )}
          </TableRow>
        ))}
      </ListTable>
      <ConnectionModal
        open={modal.open && (modal.whatsappId === null || editing !== null)}
        whatsapp={editing}
        onClose={() => setModal({ open: false })}
      />
      <QrCodeModal open={qrFor !== null} whatsappId={qrFor} onClose={() => setQrFor(null)} />
      {deletion.dialog}
      {disconnection.dialog}
    </PageContainer>
  );
}
