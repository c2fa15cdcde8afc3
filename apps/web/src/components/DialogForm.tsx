import Box from '@mui/material/Box';
import type { FormEventHandler, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ModalActions } from './ModalActions';

interface DialogFormProps {
  onSubmit: FormEventHandler;
  onCancel: () => void;
  /** The buttons' `data-testid`s are `${testIdPrefix}-cancel` and `${testIdPrefix}-submit`. */
  testIdPrefix: string;
  /** Editing a saved record ("Salvar") rather than adding one ("Adicionar"). */
  editing: boolean;
  pending: boolean;
  /** Other reasons to disable the submit button. */
  disabled?: boolean;
  /** The dialog's content (a `DialogContent`, maybe with tabs above it). */
  children: ReactNode;
}

/** The form of an add/edit dialog: its content, then the cancel and add (or save) buttons. */
export function DialogForm({
  onSubmit,
  onCancel,
  testIdPrefix,
  editing,
  pending,
  disabled,
  children,
}: DialogFormProps) {
  const { t } = useTranslation();
  return (
    <Box
      component="form"
      noValidate
      onSubmit={onSubmit}
      // flex: a full-screen (phone) dialog keeps its buttons at the bottom.
      sx={{ display: 'flex', flexDirection: 'column', flex: '1 1 auto', minHeight: 0 }}
    >
      {children}
      <ModalActions
        onCancel={onCancel}
        cancelTestId={`${testIdPrefix}-cancel`}
        submitLabel={t(editing ? 'common.save' : 'common.add')}
        submitTestId={`${testIdPrefix}-submit`}
        pending={pending}
        disabled={disabled}
      />
    </Box>
  );
}
