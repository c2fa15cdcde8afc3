import { companyEvent, type Whatsapp, type WhatsappEvent } from '@balcao/shared';
import { useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '../../api/queryKeys';
import { useSessionUser } from '../../app/AuthContext';
import { useSocketEvent } from '../../app/RealtimeProvider';
import { applyWhatsappEvent } from './connectionsCache';

/** Keeps the connections list in step with `company-{id}-whatsapp` and `company-{id}-whatsappSession`. */
export function useConnectionsRealtime(): void {
  const me = useSessionUser();
  const queryClient = useQueryClient();
  const apply = (event: WhatsappEvent) => {
    queryClient.setQueryData<Whatsapp[]>(queryKeys.whatsapps, (list) => applyWhatsappEvent(list, event));
  };
  useSocketEvent<WhatsappEvent>(companyEvent.whatsapp(me.companyId), apply);
  useSocketEvent<WhatsappEvent>(companyEvent.whatsappSession(me.companyId), apply);
}
