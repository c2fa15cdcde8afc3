import Block from '@mui/icons-material/Block';
import Palette from '@mui/icons-material/Palette';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Popover from '@mui/material/Popover';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import { type Ref, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { readableTextOn } from '../../components/colorContrast';
import type { Swatch } from './palette';

interface ColorFieldProps {
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  inputRef?: Ref<HTMLInputElement>;
  label: string;
  /** The palette offered, colours used elsewhere marked as taken. */
  swatches: readonly Swatch[];
  error?: boolean;
  helperText?: string;
  /** `data-testid` of the input; the palette button and swatches derive theirs from it. */
  testId: string;
}

/** A colour: free text (e.g. #7C3AED) plus a palette of fixed colours, the taken ones not selectable. */
export function ColorField({
  value,
  onChange,
  onBlur,
  inputRef,
  label,
  swatches,
  error,
  helperText,
  testId,
}: ColorFieldProps) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <TextField
        value={value}
        onChange={(event) => onChange(event.target.value)}
        onBlur={onBlur}
        inputRef={inputRef}
        label={label}
        fullWidth
        error={error}
        helperText={helperText}
        slotProps={{
          htmlInput: { 'data-testid': testId, maxLength: 9 },
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <Box
                  data-testid={`${testId}-preview`}
                  sx={{ width: 22, height: 22, borderRadius: 1, border: 1, borderColor: 'divider', bgcolor: value }}
                />
              </InputAdornment>
            ),
            endAdornment: (
              <InputAdornment position="end">
                <Tooltip title={t('colorField.palette')}>
                  <IconButton
                    edge="end"
                    onClick={(event) => setAnchor(event.currentTarget)}
                    aria-label={t('colorField.palette')}
                    data-testid={`${testId}-palette`}
                  >
                    <Palette />
                  </IconButton>
                </Tooltip>
              </InputAdornment>
            ),
          },
        }}
      />
      <Popover
        open={anchor !== null}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(10, 24px)', gap: 0.75, p: 1.5 }}>
          {swatches.map(({ color, taken }, index) => (
            <Box
              key={color}
              component="button"
              type="button"
              title={taken ? t('colorField.taken', { color }) : color}
              aria-label={taken ? t('colorField.taken', { color }) : color}
              disabled={taken}
              data-testid={`${testId}-swatch-${index}`}
              data-taken={taken}
              onClick={() => {
                onChange(color);
                setAnchor(null);
              }}
              sx={{
                width: 24,
                height: 24,
                p: 0,
                display: 'grid',
                placeItems: 'center',
                cursor: taken ? 'not-allowed' : 'pointer',
                bgcolor: color,
                color: readableTextOn(color),
                borderRadius: 0.5,
                border: 2,
                borderColor: color.toLowerCase() === value.toLowerCase() ? 'text.primary' : 'divider',
              }}
            >
              {taken && <Block sx={{ fontSize: 16 }} />}
            </Box>
          ))}
        </Box>
      </Popover>
    </>
  );
}
