import { VOLUME } from '@balcao/shared';
import VolumeDown from '@mui/icons-material/VolumeDown';
import VolumeOff from '@mui/icons-material/VolumeOff';
import VolumeUp from '@mui/icons-material/VolumeUp';
import IconButton from '@mui/material/IconButton';
import Popover from '@mui/material/Popover';
import Slider from '@mui/material/Slider';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { storedVolume, storeVolume } from './volume';

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
          <Slider
            aria-label={t('topbar.volume')}
            min={VOLUME.min}
            max={VOLUME.max}
            step={VOLUME.step}
            value={volume}
            valueLabelDisplay="auto"
            onChange={(_, value) => {
              setVolume(value);
              storeVolume(value);
            }}
            data-testid="volume-slider"
          />
          <VolumeUp fontSize="small" />
        </Stack>
      </Popover>
    </>
  );
}
