import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

const QR_SIZE_PX = 240;

/**
 * The QR code of a payload as a PNG data URL, or null while it is drawn (or when it cannot be). The
 * `qrcode` library is loaded when a screen first shows a code (a connection's QR, a Pix charge).
 */
function useQrDataUrl(payload: string): string | null {
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

/** A square QR code on white (scanners need the contrast in dark mode too), narrower on a phone. */
export function QrCodeImage({ payload, alt, testId }: { payload: string; alt: string; testId: string }) {
  const { t } = useTranslation();
  const url = useQrDataUrl(payload);
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
          alt={alt}
          width={QR_SIZE_PX}
          height={QR_SIZE_PX}
          data-testid={testId}
          sx={{ display: 'block', maxWidth: '100%', height: 'auto' }}
        />
      ) : (
        <CircularProgress size={28} aria-label={t('common.loading')} />
      )}
    </Box>
  );
}
