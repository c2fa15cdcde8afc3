import { type SQL, sql } from 'drizzle-orm';
import { tickets } from '../modules/tickets/tickets.schema.js';

/** What the inbound automations read of a message's ticket. */
export const ticketStateColumns = {
  id: tickets.id,
  companyId: tickets.companyId,
  whatsappId: tickets.whatsappId,
  contactId: tickets.contactId,
  userId: tickets.userId,
  queueId: tickets.queueId,
  queueOptionId: tickets.queueOptionId,
  chatbot: tickets.chatbot,
  amountUsedBotQueues: tickets.amountUsedBotQueues,
  isGroup: tickets.isGroup,
  status: tickets.status,
  awaitingRating: tickets.awaitingRating,
  outOfHoursNotifiedAt: tickets.outOfHoursNotifiedAt,
};
export type TicketState = Pick<typeof tickets.$inferSelect, keyof typeof ticketStateColumns>;

/** The ticket state of a row of `tickets` as one JSON object (for a RETURNING), read back by ticketStateOf. */
export const ticketStateJson: SQL = sql`json_build_object(${sql.join(
  Object.entries(ticketStateColumns).map(([key, column]) => sql`${sql.raw(`'${key}'`)}, ${column}`),
  sql`, `,
)})`;

/** A ticket state as JSON gives it: its times are strings. */
export type TicketStateJson = Omit<TicketState, 'outOfHoursNotifiedAt'> & { outOfHoursNotifiedAt: string | null };

export function ticketStateOf(json: TicketStateJson): TicketState {
  const at = json.outOfHoursNotifiedAt;
  return { ...json, outOfHoursNotifiedAt: at === null ? null : new Date(at) };
}
