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
import { useTranslation } from 'react-i18next';
import { useSessionUser } from '../../app/AuthContext';
import { useSocketEvent } from '../../app/RealtimeProvider';
import { QrCodeImage } from '../../components/QrCodeImage';
import { useWhatsapps } from './connectionsApi';

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
            <QrCodeImage payload={qrcode} alt={t('qrCodeModal.alt')} testId="qrcode-image" />
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
                fontSize: 11,
                lineHeight: 1.4,
                color: 'text.secondary',
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
