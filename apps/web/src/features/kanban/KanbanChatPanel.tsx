import { useSessionUser } from '../../app/AuthContext';
import { useMessagesRealtime } from '../messages/useMessagesRealtime';
import { TicketChat } from '../tickets/TicketChat';
import { usePickersRealtime, useTicketsRealtime, viewerOf } from '../tickets/ticketsQueries';

/** The tickets feature's chat, with the live updates its page would give it, beside the board. */
export function KanbanChatPanel({ uuid }: { uuid: string }) {
  const me = useSessionUser();
  useTicketsRealtime(me.companyId, viewerOf(me));
  usePickersRealtime(me.companyId);
  useMessagesRealtime(me.companyId);
  return <TicketChat uuid={uuid} />;
}
