import {
  chatInput,
  chatMessageInput,
  chatMessageSchema,
  chatMessagesQuery,
  chatMessagesReply,
  chatRefParam,
  chatSchema,
  chatsListQuery,
  chatsListReply,
  chatUpdate,
  idParam,
  okReply,
} from '@balcao/shared';
import { type ModuleRoutes, serviceContext } from '../../platform/http/types.js';
import {
  createChat,
  deleteChat,
  findChat,
  listChats,
  listMessages,
  markRead,
  sendMessage,
  updateChat,
} from './chats.service.js';

/**
 * Spec part 2 §7's internal chat calls, the whole module behind the plan flag `useInternalChat`.
 * Every call checks membership (DOMAIN §14): a non-member gets 404, a member 403 on owner-only writes.
 * `GET /chats/:id` also takes the chat's uuid (the page's route is `/chats/{uuid}`).
 */
export const chatsRoutes: ModuleRoutes = (app, deps, guards) => {
  const tags = ['chats'];
  const gate = guards.plan('useInternalChat');
  const ctx = serviceContext.bind(null, deps);
  app.get(
    '/chats',
    { onRequest: gate, schema: { tags, querystring: chatsListQuery, response: { 200: chatsListReply } } },
    (request) => listChats(ctx(request), request.query),
  );
  app.get(
    '/chats/:id',
    { onRequest: gate, schema: { tags, params: chatRefParam, response: { 200: chatSchema } } },
    (request) => findChat(ctx(request), request.params.id),
  );
  app.post(
    '/chats',
    { onRequest: gate, schema: { tags, body: chatInput, response: { 201: chatSchema } } },
    async (request, reply) => reply.status(201).send(await createChat(ctx(request), request.body)),
  );
  app.put(
    '/chats/:id',
    { onRequest: gate, schema: { tags, params: idParam, body: chatUpdate, response: { 200: chatSchema } } },
    (request) => updateChat(ctx(request), request.params.id, request.body),
  );
  app.delete(
    '/chats/:id',
    { onRequest: gate, schema: { tags, params: idParam, response: { 200: okReply } } },
    async (request) => {
      await deleteChat(ctx(request), request.params.id);
      return { message: 'Chat deleted' };
    },
  );
  app.get(
    '/chats/:id/messages',
    {
      onRequest: gate,
      schema: { tags, params: idParam, querystring: chatMessagesQuery, response: { 200: chatMessagesReply } },
    },
    (request) => listMessages(ctx(request), request.params.id, request.query),
  );
  app.post(
    '/chats/:id/messages',
    {
      onRequest: gate,
      schema: { tags, params: idParam, body: chatMessageInput, response: { 201: chatMessageSchema } },
    },
    async (request, reply) =>
      reply.status(201).send(await sendMessage(ctx(request), request.params.id, request.body.message)),
  );
  // Spec: `POST /chats/{id}/read (userId)`. The body is ignored: the caller's own counter is cleared.
  app.post(
    '/chats/:id/read',
    { onRequest: gate, schema: { tags, params: idParam, response: { 200: chatSchema } } },
    (request) => markRead(ctx(request), request.params.id),
  );
};
