import { idParam, ticketNoteInput, ticketNoteSchema, ticketNotesQuery } from '@balcao/shared';
import { z } from 'zod';
import { type ModuleRoutes, serviceContext } from '../../platform/http/types.js';
import { createNote, deleteNote, listNotes } from './ticket-notes.service.js';

export const ticketNotesRoutes: ModuleRoutes = (app, deps, guards) => {
  const tags = ['ticket-notes'];
  const ctx = serviceContext.bind(null, deps);
  app.get(
    '/ticket-notes/list',
    {
      onRequest: guards.auth,
      schema: { tags, querystring: ticketNotesQuery, response: { 200: z.array(ticketNoteSchema) } },
    },
    (request) => listNotes(ctx(request), request.query),
  );
  app.post(
    '/ticket-notes',
    { onRequest: guards.auth, schema: { tags, body: ticketNoteInput, response: { 201: ticketNoteSchema } } },
    async (request, reply) => reply.status(201).send(await createNote(ctx(request), request.body)),
  );
  app.delete('/ticket-notes/:id', { onRequest: guards.auth, schema: { tags, params: idParam } }, async (request) => {
    await deleteNote(ctx(request), request.params.id);
    return { message: 'Note deleted' };
  });
};
