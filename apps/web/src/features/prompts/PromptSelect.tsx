import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { type Control, Controller, type FieldPath, type FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../app/AuthContext';
import { planAllows } from '../../app/gates';
import { usePrompts } from './promptsApi';

interface PromptSelectProps<T extends FieldValues> {
  control: Control<T>;
  /** A `number | null` field: the prompt's id, or none. */
  name: FieldPath<T>;
  /** The `data-testid` of the field; each option is `${testId}-option-${id}`. */
  testId: string;
  helperText?: string;
}

/**
 * The AI prompt that answers on a connection or queue (DOMAIN §1.7, §16), or none. Not shown when
 * the plan has no `useOpenAi`: the field then keeps its value.
 */
export function PromptSelect<T extends FieldValues>({ control, name, testId, helperText }: PromptSelectProps<T>) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const allowed = user !== null && planAllows(user, 'useOpenAi');
  const prompts = usePrompts(allowed);
  if (!allowed) return null;
  return (
    <Controller
      name={name}
      control={control}
      render={({ field }) => {
        const known = prompts.data?.some((p) => p.id === field.value) ?? false;
        return (
          <TextField
            select
            label={t('prompts.select.label')}
            // A prompt not (yet) in the list shows as none rather than as an out-of-range value.
            value={field.value !== null && known ? field.value : ''}
            onChange={(event) => field.onChange(event.target.value === '' ? null : Number(event.target.value))}
            helperText={helperText ?? t('prompts.select.help')}
            fullWidth
            data-testid={testId}
          >
            <MenuItem value="">
              <em>{t('prompts.select.none')}</em>
            </MenuItem>
            {(prompts.data ?? []).map((p) => (
              <MenuItem key={p.id} value={p.id} data-testid={`${testId}-option-${p.id}`}>
                {p.name}
              </MenuItem>
            ))}
          </TextField>
        );
      }}
    />
  );
}
