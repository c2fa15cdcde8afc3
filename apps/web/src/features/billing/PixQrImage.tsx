import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

const QR_SIZE_PX = 240;

/**
 * The Pix code as a QR image, drawn with the `qrcode` library of the connections' QR codes, loaded
 * only when a Pix screen first shows one.
 */
function usePixQrDataUrl(payload: string): string | null {
  const [drawn, setDrawn] = useState<{ payload: string; url: string } | null>(null);
  useEffect(() => {
    if (!payload) return;
    let current = true;
    import('qrcode')
      .then(({ default: QRCode }) =>
        QRCode.toDataURL(payload, { width: QR_SIZE_PX, margin: 2, errorCorrectionLevel: 'M' }),
      )
      .then((url) => current && setDrawn({ payload, url }))
      .catch(() => current && setDrawn(null));
    return () => {
      current = false;
    };
  }, [payload]);
  return drawn?.payload === payload ? drawn.url : null;
}

export function PixQrImage({ payload }: { payload: string }) {
  const { t } = useTranslation();
  const url = usePixQrDataUrl(payload);
  return (
    <Box
      sx={{
        width: QR_SIZE_PX,
        maxWidth: '100%',
        aspectRatio: '1',
        display: 'grid',
        placeItems: 'center',
        bgcolor: '#fff',
        borderRadius: 1,
        border: 1,
        borderColor: 'divider',
        overflow: 'hidden',
      }}
    >
      {url ? (
        <Box
          component="img"
          src={url}
          alt={t('billing.pix.qrAlt')}
          width={QR_SIZE_PX}
          height={QR_SIZE_PX}
          data-testid="checkout-pix-qr"
          sx={{ display: 'block', maxWidth: '100%', height: 'auto' }}
        />
      ) : (
        <CircularProgress size={28} aria-label={t('common.loading')} />
      )}
    </Box>
  );
}
