import { VOLUME } from '@balcao/shared';
import Slider from '@mui/material/Slider';
import { useTranslation } from 'react-i18next';

/** The volume popover's slider: its own module, loaded when the popover first opens. */
export function VolumeSlider({ value, onChange }: { value: number; onChange: (value: number) => void }) {
  const { t } = useTranslation();
  return (
    <Slider
      aria-label={t('topbar.volume')}
      min={VOLUME.min}
      max={VOLUME.max}
      step={VOLUME.step}
      value={value}
      valueLabelDisplay="auto"
      onChange={(_, next) => onChange(next)}
      data-testid="volume-slider"
    />
  );
}
