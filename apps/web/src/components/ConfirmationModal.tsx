import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface ConfirmationModalProps {
  open: boolean;
  title: ReactNode;
  children: ReactNode;
  onClose: () => void;
  onConfirm: () => void;
}

/** Asks before a destructive action; confirming closes the dialog. */
export function ConfirmationModal({ open, title, children, onClose, onConfirm }: ConfirmationModalProps) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={open}
      onClose={onClose}
      maxWidth="xs"
      fullWidth
      aria-labelledby="confirmation-title"
      data-testid="confirmation-modal"
    >
      <DialogTitle id="confirmation-title">{title}</DialogTitle>
      <DialogContent dividers>
        <Typography>{children}</Typography>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} color="inherit" data-testid="confirmation-cancel">
          {t('common.cancel')}
        </Button>
        <Button
          variant="contained"
          color="error"
          data-testid="confirmation-confirm"
          onClick={() => {
            onClose();
            onConfirm();
          }}
        >
          {t('common.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
