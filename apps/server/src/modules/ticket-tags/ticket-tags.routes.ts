import { kanbanQuery, kanbanReply, ticketTagParams, ticketTagReply, ticketTagTicketParam } from '@balcao/shared';
import { type ModuleRoutes, serviceContext } from '../../platform/http/types.js';
import { addTicketTag, kanbanTickets, removeKanbanTags } from './ticket-tags.service.js';

/** The kanban board (DOMAIN §13), plan flag useKanban; its lanes are `GET /tags/kanban`. */
export const ticketTagsRoutes: ModuleRoutes = (app, deps, guards) => {
  const tags = ['kanban'];
  const ctx = serviceContext.bind(null, deps);
  const gate = guards.plan('useKanban');
  app.get(
    '/ticket/kanban',
    { onRequest: gate, schema: { tags, querystring: kanbanQuery, response: { 200: kanbanReply } } },
    (request) => kanbanTickets(ctx(request), request.query),
  );
  app.put(
    '/ticket-tags/:ticketId/:tagId',
    { onRequest: gate, schema: { tags, params: ticketTagParams, response: { 200: ticketTagReply } } },
    (request) => addTicketTag(ctx(request), request.params.ticketId, request.params.tagId),
  );
  app.delete(
    '/ticket-tags/:ticketId',
    { onRequest: gate, schema: { tags, params: ticketTagTicketParam, response: { 200: ticketTagReply } } },
    (request) => removeKanbanTags(ctx(request), request.params.ticketId),
  );
};
