import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import DialogActions from '@mui/material/DialogActions';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface ModalActionsProps {
  onCancel: () => void;
  cancelTestId?: string;
  submitLabel: ReactNode;
  submitTestId: string;
  /** Saving: both buttons are disabled and the submit button spins. */
  pending: boolean;
  /** Other reasons to disable the submit button (still loading, nothing chosen). */
  disabled?: boolean;
  /** Without it the submit button submits the dialog's form. */
  onSubmit?: () => void;
}

/** The cancel and submit buttons at the bottom of a form dialog. */
export function ModalActions({
  onCancel,
  cancelTestId,
  submitLabel,
  submitTestId,
  pending,
  disabled = false,
  onSubmit,
}: ModalActionsProps) {
  const { t } = useTranslation();
  return (
    <DialogActions>
      <Button onClick={onCancel} color="inherit" disabled={pending} data-testid={cancelTestId}>
        {t('common.cancel')}
      </Button>
      <Button
        type={onSubmit ? 'button' : 'submit'}
        onClick={onSubmit}
        variant="contained"
        disabled={disabled || pending}
        startIcon={pending ? <CircularProgress size={18} color="inherit" /> : undefined}
        data-testid={submitTestId}
      >
        {submitLabel}
      </Button>
    </DialogActions>
  );
}
