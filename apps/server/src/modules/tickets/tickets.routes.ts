import { idParam, ticketCreate, ticketSchema, ticketsListQuery, ticketsListReply, ticketUpdate } from '@balcao/shared';
import { z } from 'zod';
import { runTicketTransition } from '../../automations/ticket-transitions.js';
import { type ModuleRoutes, serviceContext } from '../../platform/http/types.js';
import {
  createTicket,
  deleteTicket,
  getTicket,
  getTicketByUuid,
  listTickets,
  updateTicket,
} from './tickets.service.js';

export const ticketsRoutes: ModuleRoutes = (app, deps, guards) => {
  const tags = ['tickets'];
  const ctx = serviceContext.bind(null, deps);
  const automation = { db: deps.database.db, realtime: deps.realtime, jobs: deps.jobs };
  app.get(
    '/tickets',
    { onRequest: guards.auth, schema: { tags, querystring: ticketsListQuery, response: { 200: ticketsListReply } } },
    (request) => listTickets(ctx(request), request.query),
  );
  app.get(
    '/tickets/u/:uuid',
    {
      onRequest: guards.auth,
      schema: { tags, params: z.object({ uuid: z.uuid() }), response: { 200: ticketSchema } },
    },
    (request) => getTicketByUuid(ctx(request), request.params.uuid),
  );
  app.get(
    '/tickets/:id',
    { onRequest: guards.auth, schema: { tags, params: idParam, response: { 200: ticketSchema } } },
    (request) => getTicket(ctx(request), request.params.id),
  );
  app.post(
    '/tickets',
    { onRequest: guards.auth, schema: { tags, body: ticketCreate, response: { 201: ticketSchema } } },
    async (request, reply) => reply.status(201).send(await createTicket(ctx(request), request.body)),
  );
  app.put(
    '/tickets/:id',
    { onRequest: guards.auth, schema: { tags, params: idParam, body: ticketUpdate, response: { 200: ticketSchema } } },
    (request) =>
      updateTicket(ctx(request), request.params.id, request.body, (change) =>
        // The change is saved: a failed automatic message is logged, not reported as a failed update.
        runTicketTransition(automation, change).catch((err) =>
          request.log.error({ err, ticketId: change.ticket.id }, 'ticket automation failed'),
        ),
      ),
  );
  app.delete('/tickets/:id', { onRequest: guards.admin, schema: { tags, params: idParam } }, async (request) => {
    await deleteTicket(ctx(request), request.params.id);
    return { message: 'Ticket deleted' };
  });
};
