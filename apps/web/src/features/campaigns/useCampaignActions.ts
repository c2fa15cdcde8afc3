import type { Campaign } from '@balcao/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { toastError } from '../../components/toastError';
import { campaignsApi } from './campaignsApi';
import { storeCampaign } from './useCampaignsRealtime';

/**
 * Stop a running campaign (EM_ANDAMENTO → CANCELADA) or restart a cancelled one (spec part 2 §4); a
 * refusal shows the error's message (§8).
 */
export function useCampaignActions() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const options = (call: (id: number) => Promise<Campaign>, done: string) => ({
    mutationFn: (campaign: Pick<Campaign, 'id'>) => call(campaign.id),
    onSuccess: (record: Campaign) => {
      toast.success(done);
      storeCampaign(queryClient, { action: 'update', record, id: record.id });
    },
    onError: toastError,
  });
  const cancel = useMutation(options(campaignsApi.cancel, t('campaigns.cancelled')));
  const restart = useMutation(options(campaignsApi.restart, t('campaigns.restarted')));
  return { cancel, restart, pending: cancel.isPending || restart.isPending };
}
