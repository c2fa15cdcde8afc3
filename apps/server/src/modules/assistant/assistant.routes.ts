import {
  assistantAuthInput,
  assistantMessageInput,
  assistantMessageReply,
  assistantRephraseInput,
  assistantStateSchema,
  assistantSuggestionReply,
  assistantTicketParams,
  assistantTokenInput,
  assistantTokenReply,
} from '@balcao/shared';
import { type ModuleRoutes, serviceContext } from '../../platform/http/types.js';
import { encryptionKeyOf } from '../../platform/secrets.js';
import type { AssistantDeps } from './assistant.service.js';
import {
  getAssistantState,
  saveAssistantToken,
  sendAssistantMessage,
  signInAssistant,
  signOutAssistant,
} from './assistant.service.js';
import { helpWithTicket } from './assistant.tickets.js';

/**
 * `/assistant`: the chat-assistant widget of every signed-in user (spec part 1 §1–9, DOMAIN §19).
 * No id in any path: every call reads and writes the caller's own rows (company and user from the token).
 */
export const assistantRoutes: ModuleRoutes = (app, deps, guards) => {
  const tags = ['assistant'];
  const ctx = serviceContext.bind(null, deps);
  const assistant: AssistantDeps = {
    key: encryptionKeyOf(deps.config),
    openai: { baseUrl: deps.config.OPENAI_BASE_URL, timeoutMs: deps.config.OPENAI_TIMEOUT_MS },
    limiter: deps.limiter,
    maxFailures: deps.config.LOGIN_LIMIT_EMAIL,
    now: () => new Date(),
  };
  const auth = guards.auth;

  app.get('/assistant', { onRequest: auth, schema: { tags, response: { 200: assistantStateSchema } } }, (request) =>
    getAssistantState(ctx(request), assistant),
  );
  app.post(
    '/assistant/auth',
    { onRequest: auth, schema: { tags, body: assistantAuthInput, response: { 200: assistantStateSchema } } },
    (request) => signInAssistant(ctx(request), assistant, request.body),
  );
  app.post(
    '/assistant/logout',
    { onRequest: auth, schema: { tags, response: { 200: assistantStateSchema } } },
    (request) => signOutAssistant(ctx(request), assistant),
  );
  app.put(
    '/assistant/token',
    { onRequest: auth, schema: { tags, body: assistantTokenInput, response: { 200: assistantTokenReply } } },
    (request) => saveAssistantToken(ctx(request), assistant, request.body.token),
  );
  app.post(
    '/assistant/messages',
    { onRequest: auth, schema: { tags, body: assistantMessageInput, response: { 200: assistantMessageReply } } },
    (request) => sendAssistantMessage(ctx(request), assistant, request.body.content),
  );

  // Beyond the spec: help in a ticket the caller may see; the text is returned, never sent.
  const help = { tags, params: assistantTicketParams, response: { 200: assistantSuggestionReply } };
  app.post('/assistant/tickets/:ticketId/summary', { onRequest: auth, schema: help }, (request) =>
    helpWithTicket(ctx(request), assistant, request.params.ticketId, 'summary'),
  );
  app.post('/assistant/tickets/:ticketId/suggestion', { onRequest: auth, schema: help }, (request) =>
    helpWithTicket(ctx(request), assistant, request.params.ticketId, 'suggestion'),
  );
  app.post(
    '/assistant/tickets/:ticketId/rephrase',
    { onRequest: auth, schema: { ...help, body: assistantRephraseInput } },
    (request) => helpWithTicket(ctx(request), assistant, request.params.ticketId, 'rephrase', request.body.draft),
  );
};
