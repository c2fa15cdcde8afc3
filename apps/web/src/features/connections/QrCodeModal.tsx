import { companyEvent, type WhatsappEvent } from '@balcao/shared';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSessionUser } from '../../app/AuthContext';
import { useSocketEvent } from '../../app/RealtimeProvider';
import { useWhatsapps } from './connectionsApi';

const SIZE = 25;
const FINDER = 7;

function inFinder(x: number, y: number): boolean {
  const corner = (cx: number, cy: number) => x >= cx && x < cx + FINDER && y >= cy && y < cy + FINDER;
  return corner(0, 0) || corner(SIZE - FINDER, 0) || corner(0, SIZE - FINDER);
}

function finderDark(x: number, y: number): boolean {
  const lx = x % (SIZE - FINDER) === x ? x : x - (SIZE - FINDER);
  const ly = y % (SIZE - FINDER) === y ? y : y - (SIZE - FINDER);
  const ring = Math.max(Math.abs(lx - 3), Math.abs(ly - 3));
  return ring !== 2;
}

/**
 * The dark modules of a QR-looking grid derived from the payload. Illustrative only: no QR
 * library is installed, so this is not a scannable code (the payload is shown as text).
 */
export function qrLikeModules(payload: string): [number, number][] {
  let hash = 2166136261;
  for (let i = 0; i < payload.length; i++) {
    hash ^= payload.charCodeAt(i);
    hash = Math.imul(hash, 16777619);
  }
  const modules: [number, number][] = [];
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) {
      if (inFinder(x, y)) {
        if (finderDark(x, y)) modules.push([x, y]);
        continue;
      }
      hash ^= x * 31 + y * 17;
      hash = Math.imul(hash, 16777619);
      if ((hash >>> 7) & 1) modules.push([x, y]);
    }
  }
  return modules;
}

function QrLikeImage({ payload }: { payload: string }) {
  const modules = useMemo(() => qrLikeModules(payload), [payload]);
  return (
    <Box
      component="svg"
      viewBox={`-2 -2 ${SIZE + 4} ${SIZE + 4}`}
      sx={{ width: 200, height: 200, bgcolor: '#fff', borderRadius: 1, border: 1, borderColor: 'divider' }}
      role="img"
      aria-hidden
      data-testid="qrcode-image"
    >
      {modules.map(([x, y]) => (
        <rect key={`${x}-${y}`} x={x} y={y} width={1} height={1} fill="#111" />
      ))}
    </Box>
  );
}

interface QrCodeModalProps {
  open: boolean;
  whatsappId: number | null;
  onClose: () => void;
}

/**
 * Shows the QR payload of a connection waiting to be paired. It follows the live session
 * updates and closes itself when one arrives for this connection with an empty qrcode (spec §2).
 */
export function QrCodeModal({ open, whatsappId, onClose }: QrCodeModalProps) {
  const { t } = useTranslation();
  const me = useSessionUser();
  const whatsapps = useWhatsapps(open);
  const connection = whatsapps.data?.find((w) => w.id === whatsappId);
  const qrcode = connection?.qrcode ?? '';

  useSocketEvent<WhatsappEvent>(companyEvent.whatsappSession(me.companyId), (event) => {
    if (!open || event.action !== 'update' || !event.session) return;
    if (event.session.id === whatsappId && !event.session.qrcode) onClose();
  });

  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth data-testid="qrcode-modal">
      <DialogTitle>{t('qrCodeModal.title', { name: connection?.name ?? '' })}</DialogTitle>
      <DialogContent dividers>
        {qrcode ? (
          <Stack spacing={2} sx={{ alignItems: 'center' }}>
            <Typography color="text.secondary" variant="body2" sx={{ alignSelf: 'stretch' }}>
              {t('qrCodeModal.instructions')}
            </Typography>
            <QrLikeImage payload={qrcode} />
            <Typography variant="caption" color="text.secondary">
              {t('qrCodeModal.caption')}
            </Typography>
            <Box
              component="pre"
              data-testid="qrcode-payload"
              sx={{
                alignSelf: 'stretch',
                m: 0,
                p: 1.5,
                fontFamily: 'monospace',
                fontSize: 13,
                whiteSpace: 'pre-wrap',
                wordBreak: 'break-all',
                bgcolor: 'action.hover',
                borderRadius: 1,
              }}
            >
              {qrcode}
            </Box>
          </Stack>
        ) : (
          <Stack spacing={2} sx={{ alignItems: 'center', py: 4 }} data-testid="qrcode-waiting">
            <CircularProgress />
            <Typography color="text.secondary">{t('qrCodeModal.waiting')}</Typography>
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        {qrcode && (
          <Button
            onClick={() => void navigator.clipboard?.writeText(qrcode).catch(() => undefined)}
            data-testid="qrcode-copy"
          >
            {t('qrCodeModal.copy')}
          </Button>
        )}
        <Button onClick={onClose} color="inherit" data-testid="qrcode-close">
          {t('common.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
