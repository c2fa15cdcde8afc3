import Chip, { type ChipProps } from '@mui/material/Chip';
import { readableTextOn } from './colorContrast';

/** A chip filled with a user-chosen colour (queue, tag), its text black or white by contrast. */
export function ColorChip({ color, sx, ...props }: Omit<ChipProps, 'color'> & { color: string | undefined }) {
  return (
    <Chip
      {...props}
      sx={[{ bgcolor: color, color: readableTextOn(color), fontWeight: 600 }, ...(Array.isArray(sx) ? sx : [sx])]}
    />
  );
}
