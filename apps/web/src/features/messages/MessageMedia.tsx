import type { Message } from '@balcao/shared';
import BrokenImage from '@mui/icons-material/BrokenImageOutlined';
import Download from '@mui/icons-material/Download';
import InsertDriveFile from '@mui/icons-material/InsertDriveFileOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMediaUrl } from './useMediaUrl';

type MediaMessage = Pick<Message, 'id' | 'mediaType' | 'mediaUrl' | 'mediaName'>;

function Unavailable() {
  const { t } = useTranslation();
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', color: 'text.secondary', py: 1 }}>
      <BrokenImage fontSize="small" />
      <Typography variant="body2">{t('messages.mediaUnavailable')}</Typography>
    </Stack>
  );
}

/** Image thumbnail (opens full size), audio and video players, or a download link for documents. */
export function MessageMedia({ message }: { message: MediaMessage }) {
  const { t } = useTranslation();
  const { objectUrl, loading, failed } = useMediaUrl(message.mediaUrl);
  const [zoom, setZoom] = useState(false);

  if (!message.mediaUrl || failed) return <Unavailable />;
  if (loading || !objectUrl)
    return (
      <Box sx={{ display: 'grid', placeItems: 'center', width: 200, height: 60 }} data-testid={`media-${message.id}`}>
        <CircularProgress size={22} />
      </Box>
    );

  switch (message.mediaType) {
    case 'image':
      return (
        <>
          <Box
            component="img"
            src={objectUrl}
            alt={message.mediaName ?? ''}
            onClick={() => setZoom(true)}
            data-testid={`media-${message.id}`}
            sx={{ display: 'block', maxWidth: 260, maxHeight: 260, borderRadius: 1.5, cursor: 'zoom-in' }}
          />
          <Dialog open={zoom} onClose={() => setZoom(false)} maxWidth="lg">
            <Box
              component="img"
              src={objectUrl}
              alt={message.mediaName ?? ''}
              onClick={() => setZoom(false)}
              sx={{ display: 'block', maxWidth: '90vw', maxHeight: '85vh' }}
            />
          </Dialog>
        </>
      );
    case 'audio':
      return (
        // biome-ignore lint/a11y/useMediaCaption: voice notes have no captions
        <audio controls src={objectUrl} data-testid={`media-${message.id}`} style={{ maxWidth: 280 }} />
      );
    case 'video':
      return (
        // biome-ignore lint/a11y/useMediaCaption: videos from contacts have no captions
        <video
          controls
          src={objectUrl}
          data-testid={`media-${message.id}`}
          style={{ maxWidth: 300, maxHeight: 260, borderRadius: 8 }}
        />
      );
    default:
      return (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', py: 0.5 }}>
          <InsertDriveFile color="action" />
          <Typography variant="body2" sx={{ wordBreak: 'break-all', flex: 1 }}>
            {message.mediaName ?? t('messages.mediaTypes.application')}
          </Typography>
          <Button
            size="small"
            variant="outlined"
            startIcon={<Download />}
            component="a"
            href={objectUrl}
            download={message.mediaName ?? 'file'}
            data-testid={`media-${message.id}`}
          >
            {t('messages.download')}
          </Button>
        </Stack>
      );
  }
}
