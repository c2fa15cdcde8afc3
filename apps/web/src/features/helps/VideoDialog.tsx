import { type Help, youtubeEmbedUrl } from '@balcao/shared';
import Close from '@mui/icons-material/Close';
import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

/**
 * The video modal of /helps: the privacy-enhanced YouTube player (DOMAIN §15). Escape, the close
 * button or a click outside closes it, and closing unmounts the player, which stops the video.
 */
export function VideoDialog({ help, onClose }: { help: Help | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={help !== null}
      onClose={onClose}
      fullWidth
      maxWidth="md"
      aria-labelledby="help-video-title"
      data-testid="help-video-modal"
    >
      {help && (
        <>
          <DialogTitle id="help-video-title" sx={{ pr: 6 }}>
            {help.title}
            <IconButton
              aria-label={t('common.close')}
              onClick={onClose}
              sx={{ position: 'absolute', right: 8, top: 8 }}
              data-testid="help-video-close"
            >
              <Close />
            </IconButton>
          </DialogTitle>
          <DialogContent sx={{ px: { xs: 1, sm: 3 } }}>
            <Box
              sx={{
                position: 'relative',
                aspectRatio: '16 / 9',
                bgcolor: 'common.black',
                borderRadius: 1,
                overflow: 'hidden',
              }}
            >
              <Box
                component="iframe"
                src={`${youtubeEmbedUrl(help.video)}?autoplay=1&rel=0`}
                title={help.title}
                allow="autoplay; encrypted-media; picture-in-picture; fullscreen"
                allowFullScreen
                // The app sends no Referer at all; YouTube's player refuses to play without one, so this
                // frame alone sends the origin (never the path).
                referrerPolicy="strict-origin"
                data-testid="help-video-player"
                sx={{ position: 'absolute', inset: 0, width: '100%', height: '100%', border: 0 }}
              />
            </Box>
            {help.description && (
              <Typography sx={{ mt: 2, whiteSpace: 'pre-line' }} color="text.secondary">
                {help.description}
              </Typography>
            )}
          </DialogContent>
        </>
      )}
    </Dialog>
  );
}
