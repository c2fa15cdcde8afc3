import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { toast } from 'react-toastify';

/** How long an action can be undone: long enough to notice a slip, short enough not to linger. */
export const UNDO_MS = 6000;

/** A success toast with an "undo" button for a few seconds. */
export function toastWithUndo(message: string, undoLabel: string, onUndo: () => void, toastId: string): void {
  toast.success(
    ({ closeToast }) => (
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <Typography variant="body2" sx={{ flex: 1 }}>
          {message}
        </Typography>
        <Button
          size="small"
          onClick={() => {
            closeToast();
            onUndo();
          }}
          data-testid="undo-button"
        >
          {undoLabel}
        </Button>
      </Stack>
    ),
    { autoClose: UNDO_MS, toastId },
  );
}
