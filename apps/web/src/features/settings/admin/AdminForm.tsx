import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import type { FormEventHandler, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface AdminFormProps {
  onSubmit: FormEventHandler;
  /** Back to an empty form (leaves the record being edited). */
  onClear: () => void;
  /** Editing a row loaded from the table: "Salvar" instead of "Adicionar", and the delete button. */
  editing: boolean;
  onDelete?: () => void;
  pending: boolean;
  /** The buttons' `data-testid`s are `${testIdPrefix}-clear|-delete|-submit`. */
  testIdPrefix: string;
  children: ReactNode;
}

/**
 * The form above a settings table (Empresas, Planos, Ajuda): its fields on a grid of up to four
 * columns that stacks into one on phones, then clear, delete and save.
 */
export function AdminForm({ onSubmit, onClear, editing, onDelete, pending, testIdPrefix, children }: AdminFormProps) {
  const { t } = useTranslation();
  return (
    <Box component="form" noValidate onSubmit={onSubmit} data-testid={`${testIdPrefix}-form`}>
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          alignItems: 'start',
          gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))', md: 'repeat(4, minmax(0, 1fr))' },
        }}
      >
        {children}
      </Box>
      <Stack direction={{ xs: 'column-reverse', sm: 'row' }} spacing={1} sx={{ justifyContent: 'flex-end', mt: 2 }}>
        <Button color="inherit" onClick={onClear} disabled={pending} data-testid={`${testIdPrefix}-clear`}>
          {t('settings.admin.clear')}
        </Button>
        {editing && onDelete && (
          <Button
            color="error"
            variant="outlined"
            onClick={onDelete}
            disabled={pending}
            data-testid={`${testIdPrefix}-delete`}
          >
            {t('common.delete')}
          </Button>
        )}
        <Button
          type="submit"
          variant="contained"
          disabled={pending}
          startIcon={pending ? <CircularProgress size={18} color="inherit" /> : undefined}
          data-testid={`${testIdPrefix}-submit`}
        >
          {t(editing ? 'common.save' : 'common.add')}
        </Button>
      </Stack>
    </Box>
  );
}

/** A field that takes the whole width of the form's grid (a long description, a row of switches). */
export const fullRow = { gridColumn: '1 / -1' } as const;
