import type { FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../app/AuthContext';
import { planAllows } from '../../app/gates';
import { RecordSelect, type RecordSelectProps } from '../../components/RecordSelect';
import { usePrompts } from './promptsApi';

/**
 * The AI prompt that answers on a connection or queue (DOMAIN §1.7, §16), or none. Not shown when
 * the plan has no `useOpenAi`: the field then keeps its value.
 */
export function PromptSelect<T extends FieldValues>({ helperText, ...field }: RecordSelectProps<T>) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const allowed = user !== null && planAllows(user, 'useOpenAi');
  const prompts = usePrompts(allowed);
  if (!allowed) return null;
  return (
    <RecordSelect
      {...field}
      label={t('prompts.select.label')}
      none={t('prompts.select.none')}
      helperText={helperText ?? t('prompts.select.help')}
      records={prompts.data}
    />
  );
}
