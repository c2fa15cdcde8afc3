import type { CampaignStatus } from '@balcao/shared';
import Chip, { type ChipProps } from '@mui/material/Chip';
import { useTranslation } from 'react-i18next';

const colors: Record<CampaignStatus, ChipProps['color']> = {
  INATIVA: 'default',
  PROGRAMADA: 'info',
  EM_ANDAMENTO: 'warning',
  CANCELADA: 'error',
  FINALIZADA: 'success',
};

/** A campaign's status by its label (spec part 2 §4: Inativa, Programada, Em Andamento…). */
export function CampaignStatusChip({ status, testId }: { status: CampaignStatus; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Chip
      size="small"
      variant="outlined"
      color={colors[status]}
      label={t(`campaigns.status.${status}`)}
      data-testid={testId}
    />
  );
}
