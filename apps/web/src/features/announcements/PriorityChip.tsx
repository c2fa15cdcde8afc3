import Chip from '@mui/material/Chip';
import { useTranslation } from 'react-i18next';

/** Spec part 2 §9: 1 Alta (red), 2 Média (orange), 3 Baixa (grey). */
export const priorityColor = (priority: number) =>
  priority === 1 ? 'error.main' : priority === 2 ? 'warning.main' : 'grey.500';

export function PriorityChip({ priority, testId }: { priority: number; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Chip
      size="small"
      label={t(`announcements.priority.${priority}`)}
      color={priority === 1 ? 'error' : priority === 2 ? 'warning' : 'default'}
      data-testid={testId}
      data-priority={priority}
    />
  );
}
