import VolumeDown from '@mui/icons-material/VolumeDown';
import VolumeOff from '@mui/icons-material/VolumeOff';
import VolumeUp from '@mui/icons-material/VolumeUp';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Popover from '@mui/material/Popover';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { lazyNamed } from '../components/lazyNamed';
import { storedVolume, storeVolume } from './volume';

const VolumeSlider = lazyNamed(() => import('./VolumeSlider'), 'VolumeSlider');

export function VolumeControl() {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [volume, setVolume] = useState(storedVolume);
  const Icon = volume === 0 ? VolumeOff : volume < 0.5 ? VolumeDown : VolumeUp;

  return (
    <>
      <Tooltip title={t('topbar.volume')}>
        <IconButton
          color="inherit"
          onClick={(event) => setAnchor(event.currentTarget)}
          aria-label={t('topbar.volume')}
          data-testid="volume-button"
        >
          <Icon />
        </IconButton>
      </Tooltip>
      <Popover
        open={anchor !== null}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
        transformOrigin={{ vertical: 'top', horizontal: 'center' }}
      >
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', px: 2, py: 1, width: 220 }}>
          <VolumeDown fontSize="small" />
          <Suspense fallback={<Box sx={{ flex: 1 }} />}>
            <VolumeSlider
              value={volume}
              onChange={(value) => {
                setVolume(value);
                storeVolume(value);
              }}
            />
          </Suspense>
          <VolumeUp fontSize="small" />
        </Stack>
      </Popover>
    </>
  );
}
