import { formatDueDate, type SubscriptionReply } from '@balcao/shared';
import Check from '@mui/icons-material/Check';
import ContentCopy from '@mui/icons-material/ContentCopy';
import Pix from '@mui/icons-material/Pix';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { QrCodeImage } from '../../components/QrCodeImage';
import { toastError } from '../../components/toastError';
import { formatCampaignDate, useCompanyTimeZone } from '../campaigns/format';
import { formatBrl } from '../settings/admin/planForm';
import { billingApi } from './billingApi';
import { COPY_CONFIRMATION_MS } from './format';

/**
 * Copies `text`: the Clipboard API, else (no secure context, permission refused) a selected
 * temporary text area inside `host` (a dialog traps the focus) and the copy command.
 */
async function copyText(text: string, host: HTMLElement | null): Promise<boolean> {
  try {
    if (!navigator.clipboard) throw new Error('no clipboard');
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (!host) return false;
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    host.appendChild(area);
    area.select();
    try {
      return document.execCommand('copy');
    } catch {
      return false;
    } finally {
      area.remove();
    }
  }
}

interface PixPaymentProps {
  charge: SubscriptionReply;
  /** The company's new due date once the live CONCLUIDA of this invoice arrived. */
  paidDueDate: string | null;
}

/**
 * The checkout's payment-code screen (spec part 2 §2): the QR image of the Pix code, the code with a
 * copy button ("Copiado!" for 1 s) and, with the sandbox provider, a button that pays the charge.
 */
export function PixPayment({ charge, paidDueDate }: PixPaymentProps) {
  const { t, i18n } = useTranslation();
  const timeZone = useCompanyTimeZone();
  const codeRef = useRef<HTMLDivElement>(null);
  const [copied, setCopied] = useState(false);
  const copiedTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(copiedTimer.current), []);

  const copy = async () => {
    if (!(await copyText(charge.copyPaste, codeRef.current))) {
      toast.error(t('billing.pix.copyFailed'));
      return;
    }
    setCopied(true);
    clearTimeout(copiedTimer.current);
    copiedTimer.current = setTimeout(() => setCopied(false), COPY_CONFIRMATION_MS);
  };

  const sandboxPay = useMutation({ mutationFn: () => billingApi.sandboxPay(charge.txid), onError: toastError });
  const value = Number(charge.valor.original);

  return (
    <Stack spacing={2} sx={{ alignItems: 'center' }} data-testid="checkout-pix">
      {paidDueDate ? (
        <Alert severity="success" sx={{ alignSelf: 'stretch' }} data-testid="checkout-paid">
          {t('billing.pix.paid', { dueDate: formatDueDate(paidDueDate) })}
        </Alert>
      ) : (
        <Typography color="text.secondary" variant="body2" sx={{ alignSelf: 'stretch' }}>
          {t('billing.pix.instructions')}
        </Typography>
      )}
      <Typography variant="h6" component="p" sx={{ fontWeight: 700 }} data-testid="checkout-pix-value">
        {Number.isFinite(value) ? formatBrl(value, i18n.language) : charge.valor.original}
      </Typography>
      <QrCodeImage payload={charge.copyPaste} alt={t('billing.pix.qrAlt')} testId="checkout-pix-qr" />
      <Typography variant="caption" color="text.secondary" data-testid="checkout-pix-expires">
        {t('billing.pix.expires', { date: formatCampaignDate(charge.expiresAt, timeZone) })}
      </Typography>
      <Box ref={codeRef} sx={{ alignSelf: 'stretch' }}>
        <Typography variant="body2" sx={{ fontWeight: 600, mb: 0.5 }} id="checkout-pix-code-label">
          {t('billing.pix.code')}
        </Typography>
        <Box
          component="pre"
          aria-labelledby="checkout-pix-code-label"
          data-testid="checkout-pix-code"
          sx={{
            m: 0,
            p: 1.5,
            maxHeight: 120,
            overflowY: 'auto',
            fontFamily: 'monospace',
            fontSize: 12,
            lineHeight: 1.4,
            whiteSpace: 'pre-wrap',
            wordBreak: 'break-all',
            bgcolor: 'action.hover',
            borderRadius: 1,
            userSelect: 'all',
          }}
        >
          {charge.copyPaste}
        </Box>
      </Box>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1.5}
        sx={{ alignSelf: 'stretch', justifyContent: 'center' }}
      >
        <Button
          variant={copied ? 'outlined' : 'contained'}
          color={copied ? 'success' : 'primary'}
          startIcon={copied ? <Check /> : <ContentCopy />}
          onClick={() => void copy()}
          data-testid="checkout-copy"
          aria-live="polite"
        >
          {copied ? t('billing.pix.copied') : t('billing.pix.copy')}
        </Button>
        {charge.sandbox && !paidDueDate && (
          <Button
            variant="outlined"
            color="secondary"
            startIcon={sandboxPay.isPending ? <CircularProgress size={18} color="inherit" /> : <Pix />}
            disabled={sandboxPay.isPending || sandboxPay.isSuccess}
            onClick={() => sandboxPay.mutate()}
            data-testid="checkout-sandbox-pay"
          >
            {t('billing.pix.sandboxPay')}
          </Button>
        )}
      </Stack>
      {sandboxPay.isSuccess && !paidDueDate && (
        <Alert severity="info" sx={{ alignSelf: 'stretch' }} data-testid="checkout-sandbox-sent">
          {t('billing.pix.sandboxSent')}
        </Alert>
      )}
    </Stack>
  );
}
