import type { ErrorCode, WeeklyScheduleEntry } from '@balcao/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies } from '../src/modules/companies/companies.schema.js';
import { createTenant, createTestServer, login, type Session, SUPER, type Tenant, type TestServer } from './harness.js';
import { connectedSandbox, contactWrites } from './sandbox-helpers.js';

/**
 * Cross-tenant harness (DOMAIN §11: every query is scoped by the caller's company from the token).
 *
 * Tenant A's admin and A's plain user call every route that takes an id with tenant B's ids. Each
 * call must answer 403 or 404, carry none of B's data, and leave B's records as they were.
 *
 * EVERY NEW MODULE MUST ADD ITS ROUTES TO `routes` BELOW: one row per method and path that takes
 * an id (GET, PUT, PATCH, DELETE, and POST on sub-resources such as `/x/:id/action`). If the route
 * needs a record of B that does not exist yet, create it in `seedB` and add its id to `Target`, and
 * add what B sees of it to `snapshotOfB` so that a change is caught.
 *
 * The second harness, `references`, sends A's own routes bodies that name B's records (fields ending
 * in `Id`/`Ids` in packages/shared/src/schemas), or paths that name one of B's records beside A's own:
 * each must be refused as not found, with the code of the record named. EVERY NEW BODY FIELD THAT
 * REFERENCES A RECORD MUST BE ADDED THERE.
 */

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Ids of tenant B's records that the routes below aim at. */
interface Target {
  companyId: number;
  adminId: number;
  userId: number;
  /** A connected sandbox connection. */
  whatsappId: number;
  contactId: number;
  queueId: number;
  queueOptionId: number;
  tagId: number;
  ticketId: number;
  ticketUuid: string;
  /** The contact's inbound message, with an image. */
  messageId: number;
  noteId: number;
  quickMessageId: number;
  scheduleId: number;
  /** A file list with one option. */
  fileListId: number;
  /** A contact list with one item. */
  contactListId: number;
  contactListItemId: number;
  /** A PROGRAMADA campaign on the contact list (far in the future, so it stays editable). */
  campaignId: number;
  /** Storage key of the image (`<companyId>/<uuid>.png`). */
  mediaKey: string;
  /** The plain user's avatar (`/media/<companyId>/<uuid>.png`). */
  userAvatar: string;
  /** A help video: the platform's, not B's, and only the super user may change it. */
  helpId: number;
  /** An inactive announcement with an image: the platform's; only the super user may read or change it. */
  announcementId: number;
  announcementMediaPath: string;
  /** An internal chat of B's admin (owner) and B's user, with one message. */
  chatId: number;
  chatUuid: string;
  /** A message B sent through the external API with its connection's token. */
  apiMessageId: number;
  /** An AI prompt on B's queue, with B's OpenAI key. */
  promptId: number;
  /** A webhook integration of B, with its signing secret. */
  integrationId: number;
  /** B's open invoice, with a sandbox Pix charge. */
  invoiceId: number;
  invoiceTxid: string;
}

interface Route {
  method: Method;
  url: (b: Target) => string;
  payload?: object | ((b: Target) => object);
  /** Sent as a multipart form with one small file in field `file`. */
  multipart?: boolean;
  /** Who may read it (the harness's positive control): B's admin, or the super user for platform records. */
  reader?: 'super';
}

const week: WeeklyScheduleEntry[] = (
  ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const
).map((weekdayEn) => ({ weekday: weekdayEn, weekdayEn, startTime: '01:00', endTime: '02:00' }));

const routes: Route[] = [
  // users
  { method: 'GET', url: (b) => `/users/${b.userId}` },
  { method: 'GET', url: (b) => `/users/${b.adminId}` },
  { method: 'PUT', url: (b) => `/users/${b.userId}`, payload: { name: 'Hacked by A', email: 'hacked@a.test' } },
  { method: 'PUT', url: (b) => `/users/${b.userId}`, payload: { password: 'hacked-pass' } },
  { method: 'PUT', url: (b) => `/users/${b.adminId}`, payload: { profile: 'user', queueIds: [] } },
  { method: 'DELETE', url: (b) => `/users/${b.userId}` },
  { method: 'DELETE', url: (b) => `/users/${b.adminId}` },
  { method: 'POST', url: (b) => `/users/${b.userId}/avatar`, multipart: true },
  { method: 'POST', url: (b) => `/users/${b.adminId}/avatar`, multipart: true },
  { method: 'DELETE', url: (b) => `/users/${b.userId}/avatar` },
  { method: 'GET', url: (b) => b.userAvatar },
  // companies
  { method: 'GET', url: (b) => `/companies/${b.companyId}` },
  { method: 'PUT', url: (b) => `/companies/${b.companyId}`, payload: { name: 'Hacked by A', dueDate: '2000-01-01' } },
  { method: 'DELETE', url: (b) => `/companies/${b.companyId}` },
  { method: 'PUT', url: (b) => `/companies/${b.companyId}/schedules`, payload: { schedules: week } },
  // plans
  { method: 'GET', url: (b) => `/companies/listPlan/${b.companyId}` },
  // connections and sessions
  { method: 'GET', url: (b) => `/whatsapp/${b.whatsappId}` },
  { method: 'PUT', url: (b) => `/whatsapp/${b.whatsappId}`, payload: { name: 'Hacked by A', greetingMessage: 'x' } },
  { method: 'DELETE', url: (b) => `/whatsapp/${b.whatsappId}` },
  { method: 'POST', url: (b) => `/whatsappsession/${b.whatsappId}` },
  { method: 'PUT', url: (b) => `/whatsappsession/${b.whatsappId}` },
  { method: 'DELETE', url: (b) => `/whatsappsession/${b.whatsappId}` },
  { method: 'POST', url: (b) => `/whatsapp/${b.whatsappId}/token` },
  // sandbox phone
  { method: 'POST', url: (b) => `/sandbox/${b.whatsappId}/scan` },
  {
    method: 'POST',
    url: (b) => `/sandbox/${b.whatsappId}/inbound`,
    payload: { number: '5599900000001', body: 'from A' },
  },
  { method: 'GET', url: (b) => `/sandbox/${b.whatsappId}/outbound?number=${SECRET_NUMBER}` },
  { method: 'POST', url: (b) => `/sandbox/${b.whatsappId}/ack`, payload: { providerId: 'SBXB', ack: 3 } },
  {
    method: 'POST',
    url: (b) => `/sandbox/${b.whatsappId}/call`,
    payload: { number: '5599900000001', callId: 'A-CALL' },
  },
  // contacts
  { method: 'GET', url: (b) => `/contacts/${b.contactId}` },
  { method: 'PUT', url: (b) => `/contacts/${b.contactId}`, payload: { name: 'Hacked by A', extraInfo: [] } },
  { method: 'DELETE', url: (b) => `/contacts/${b.contactId}` },
  // queues and their options
  { method: 'GET', url: (b) => `/queue/${b.queueId}` },
  { method: 'PUT', url: (b) => `/queue/${b.queueId}`, payload: { name: 'Hacked by A' } },
  { method: 'DELETE', url: (b) => `/queue/${b.queueId}` },
  { method: 'GET', url: (b) => `/queue-options?queueId=${b.queueId}` },
  { method: 'POST', url: () => '/queue-options', payload: (b) => ({ queueId: b.queueId, title: 'Hacked by A' }) },
  {
    method: 'POST',
    url: () => '/queue-options',
    payload: (b) => ({ queueId: b.queueId, parentId: b.queueOptionId, title: 'Hacked by A' }),
  },
  { method: 'PUT', url: (b) => `/queue-options/${b.queueOptionId}`, payload: { title: 'Hacked by A' } },
  { method: 'DELETE', url: (b) => `/queue-options/${b.queueOptionId}` },
  // tags
  { method: 'GET', url: (b) => `/tags/${b.tagId}` },
  { method: 'PUT', url: (b) => `/tags/${b.tagId}`, payload: { name: 'Hacked by A' } },
  { method: 'DELETE', url: (b) => `/tags/${b.tagId}` },
  { method: 'POST', url: () => '/tags/sync', payload: (b) => ({ ticketId: b.ticketId, tags: [] }) },
  { method: 'POST', url: () => '/tags/sync', payload: (b) => ({ ticketId: b.ticketId, tags: [{ id: b.tagId }] }) },
  // kanban (DOMAIN §13)
  { method: 'PUT', url: (b) => `/ticket-tags/${b.ticketId}/${b.tagId}` },
  { method: 'DELETE', url: (b) => `/ticket-tags/${b.ticketId}` },
  { method: 'GET', url: (b) => `/ticket/kanban?tagId=${b.tagId}` },
  // tickets
  { method: 'GET', url: (b) => `/tickets/${b.ticketId}` },
  { method: 'GET', url: (b) => `/tickets/u/${b.ticketUuid}` },
  { method: 'PUT', url: (b) => `/tickets/${b.ticketId}`, payload: { status: 'closed' } },
  { method: 'PUT', url: (b) => `/tickets/${b.ticketId}`, payload: (b) => ({ queueId: b.queueId }) },
  { method: 'DELETE', url: (b) => `/tickets/${b.ticketId}` },
  { method: 'POST', url: () => '/tickets', payload: (b) => ({ contactId: b.contactId, status: 'open' }) },
  { method: 'POST', url: () => '/tickets', payload: (b) => ({ contactId: b.contactId, whatsappId: b.whatsappId }) },
  // messages and their media
  { method: 'GET', url: (b) => `/messages/${b.ticketId}` },
  { method: 'POST', url: (b) => `/messages/${b.ticketId}`, payload: { body: 'Hacked by A' } },
  { method: 'DELETE', url: (b) => `/messages/${b.messageId}` },
  { method: 'POST', url: (b) => `/messages/${b.messageId}/retry` },
  { method: 'POST', url: (b) => `/messages/${b.ticketId}/file-list/${b.fileListId}` },
  { method: 'GET', url: (b) => `/media/${b.mediaKey}` },
  // ticket notes
  { method: 'GET', url: (b) => `/ticket-notes/list?contactId=${b.contactId}&ticketId=${b.ticketId}` },
  {
    method: 'POST',
    url: () => '/ticket-notes',
    payload: (b) => ({ note: 'Hacked by A', ticketId: b.ticketId, contactId: b.contactId }),
  },
  { method: 'DELETE', url: (b) => `/ticket-notes/${b.noteId}` },
  // quick messages
  { method: 'GET', url: (b) => `/quick-messages/${b.quickMessageId}` },
  { method: 'PUT', url: (b) => `/quick-messages/${b.quickMessageId}`, payload: { message: 'Hacked by A' } },
  { method: 'DELETE', url: (b) => `/quick-messages/${b.quickMessageId}` },
  { method: 'POST', url: (b) => `/quick-messages/${b.quickMessageId}/media-upload`, multipart: true },
  { method: 'DELETE', url: (b) => `/quick-messages/${b.quickMessageId}/media-upload` },
  { method: 'GET', url: (b) => `/schedules/${b.scheduleId}` },
  { method: 'PUT', url: (b) => `/schedules/${b.scheduleId}`, payload: { body: 'Hacked by A' } },
  { method: 'DELETE', url: (b) => `/schedules/${b.scheduleId}` },
  { method: 'POST', url: (b) => `/schedules/${b.scheduleId}/media-upload`, multipart: true },
  { method: 'DELETE', url: (b) => `/schedules/${b.scheduleId}/media-upload` },
  {
    method: 'POST',
    url: () => '/schedules',
    payload: (b) => ({ body: 'Hacked by A', contactId: b.contactId, sendAt: '2099-01-01T00:00:00Z' }),
  },
  // file lists
  { method: 'GET', url: (b) => `/files/${b.fileListId}` },
  { method: 'PUT', url: (b) => `/files/${b.fileListId}`, payload: { name: 'Hacked by A', options: [] } },
  { method: 'DELETE', url: (b) => `/files/${b.fileListId}` },
  { method: 'POST', url: (b) => `/files/uploadList/${b.fileListId}`, multipart: true },
  // contact lists and their items
  { method: 'GET', url: (b) => `/contact-lists/${b.contactListId}` },
  { method: 'PUT', url: (b) => `/contact-lists/${b.contactListId}`, payload: { name: 'Hacked by A' } },
  { method: 'DELETE', url: (b) => `/contact-lists/${b.contactListId}` },
  { method: 'POST', url: (b) => `/contact-lists/${b.contactListId}/upload`, multipart: true },
  { method: 'GET', url: (b) => `/contact-list-items?contactListId=${b.contactListId}` },
  {
    method: 'POST',
    url: () => '/contact-list-items',
    payload: (b) => ({ name: 'Hacked by A', number: '5511900000009', contactListId: b.contactListId }),
  },
  { method: 'GET', url: (b) => `/contact-list-items/${b.contactListItemId}` },
  { method: 'PUT', url: (b) => `/contact-list-items/${b.contactListItemId}`, payload: { name: 'Hacked by A' } },
  { method: 'DELETE', url: (b) => `/contact-list-items/${b.contactListItemId}` },
  // campaigns
  { method: 'GET', url: (b) => `/campaigns/${b.campaignId}` },
  { method: 'PUT', url: (b) => `/campaigns/${b.campaignId}`, payload: { name: 'Hacked by A' } },
  { method: 'DELETE', url: (b) => `/campaigns/${b.campaignId}` },
  { method: 'POST', url: (b) => `/campaigns/${b.campaignId}/media-upload`, multipart: true },
  { method: 'DELETE', url: (b) => `/campaigns/${b.campaignId}/media-upload` },
  { method: 'POST', url: (b) => `/campaigns/${b.campaignId}/cancel` },
  { method: 'POST', url: (b) => `/campaigns/${b.campaignId}/restart` },
  { method: 'GET', url: (b) => `/campaigns/${b.campaignId}/shipping` },
  { method: 'GET', url: (b) => `/campaigns/${b.campaignId}/shipping/export` },
  // internal chat
  { method: 'GET', url: (b) => `/chats/${b.chatId}` },
  { method: 'GET', url: (b) => `/chats/${b.chatUuid}` },
  { method: 'PUT', url: (b) => `/chats/${b.chatId}`, payload: { title: 'Hacked by A' } },
  { method: 'PUT', url: (b) => `/chats/${b.chatId}`, payload: (b) => ({ users: [{ id: b.userId }] }) },
  { method: 'DELETE', url: (b) => `/chats/${b.chatId}` },
  { method: 'GET', url: (b) => `/chats/${b.chatId}/messages` },
  { method: 'POST', url: (b) => `/chats/${b.chatId}/messages`, payload: { message: 'Hacked by A' } },
  { method: 'POST', url: (b) => `/chats/${b.chatId}/read`, payload: (b) => ({ userId: b.userId }) },
  // help videos
  { method: 'PUT', url: (b) => `/helps/${b.helpId}`, payload: { title: 'Hacked by A' } },
  { method: 'DELETE', url: (b) => `/helps/${b.helpId}` },
  // announcements (platform-wide; the inactive one and every write are the super user's)
  { method: 'GET', url: (b) => `/announcements/${b.announcementId}`, reader: 'super' },
  { method: 'GET', url: (b) => b.announcementMediaPath, reader: 'super' },
  { method: 'PUT', url: (b) => `/announcements/${b.announcementId}`, payload: { title: 'Hacked by A', status: true } },
  { method: 'DELETE', url: (b) => `/announcements/${b.announcementId}` },
  { method: 'POST', url: (b) => `/announcements/${b.announcementId}/media-upload`, multipart: true },
  { method: 'DELETE', url: (b) => `/announcements/${b.announcementId}/media-upload` },
  // prompts
  { method: 'GET', url: (b) => `/prompt/${b.promptId}` },
  { method: 'PUT', url: (b) => `/prompt/${b.promptId}`, payload: { name: 'Hacked by A', apiKey: 'sk-hacked-by-a' } },
  { method: 'DELETE', url: (b) => `/prompt/${b.promptId}` },
  // billing: B's invoice is neither paid nor charged by A
  {
    method: 'POST',
    url: () => '/subscription',
    payload: (b) => ({
      firstName: 'A',
      address2: 'Rua',
      city: 'X',
      zipcode: '1',
      country: 'BR',
      invoiceId: b.invoiceId,
    }),
  },
  { method: 'POST', url: (b) => `/sandbox/payments/${b.invoiceTxid}/pay` },
  // queue integrations
  { method: 'GET', url: (b) => `/queueIntegration/${b.integrationId}` },
  { method: 'PUT', url: (b) => `/queueIntegration/${b.integrationId}`, payload: { name: 'Hacked by A' } },
  { method: 'DELETE', url: (b) => `/queueIntegration/${b.integrationId}` },
  { method: 'POST', url: () => '/queueIntegration/testSession', payload: (b) => ({ id: b.integrationId }) },
  // chat-assistant widget: help in a ticket
  { method: 'POST', url: (b) => `/assistant/tickets/${b.ticketId}/summary` },
  { method: 'POST', url: (b) => `/assistant/tickets/${b.ticketId}/suggestion` },
  { method: 'POST', url: (b) => `/assistant/tickets/${b.ticketId}/rephrase`, payload: { draft: 'Hacked by A' } },
];

/** A's own records that the reference calls below write to. */
interface OwnOfA {
  userId: number;
  whatsappId: number;
  queueId: number;
  contactId: number;
  ticketId: number;
  /** A's own internal chat (A's admin and A's user). */
  chatId: number;
}

interface Reference {
  method: 'POST' | 'PUT';
  url: (a: OwnOfA, b: Target) => string;
  payload: (b: Target, a: OwnOfA) => object;
  error: ErrorCode;
}

const references: Reference[] = [
  // internal chat: members named by id
  {
    method: 'POST',
    url: () => '/chats',
    payload: (b) => ({ title: 'Ref', users: [{ id: b.userId }] }),
    error: 'ERR_NO_USER_FOUND',
  },
  {
    method: 'PUT',
    url: (a) => `/chats/${a.chatId}`,
    payload: (b, a) => ({ users: [{ id: a.userId }, { id: b.adminId }] }),
    error: 'ERR_NO_USER_FOUND',
  },
  // users: default connection and queues
  {
    method: 'POST',
    url: () => '/users',
    payload: (b) => ({ ...newUserBody(), whatsappId: b.whatsappId }),
    error: 'ERR_NO_WAPP_FOUND',
  },
  {
    method: 'POST',
    url: () => '/users',
    payload: (b) => ({ ...newUserBody(), queueIds: [b.queueId] }),
    error: 'ERR_NO_QUEUE_FOUND',
  },
  {
    method: 'PUT',
    url: (a) => `/users/${a.userId}`,
    payload: (b) => ({ whatsappId: b.whatsappId }),
    error: 'ERR_NO_WAPP_FOUND',
  },
  {
    method: 'PUT',
    url: (a) => `/users/${a.userId}`,
    payload: (b) => ({ queueIds: [b.queueId] }),
    error: 'ERR_NO_QUEUE_FOUND',
  },
  // connections: queues, the queue waiting tickets move to, the prompt
  {
    method: 'POST',
    url: () => '/whatsapp',
    payload: (b) => ({ name: 'Ref A', provider: 'sandbox', queueIds: [b.queueId] }),
    error: 'ERR_NO_QUEUE_FOUND',
  },
  {
    method: 'POST',
    url: () => '/whatsapp',
    payload: (b) => ({ name: 'Ref A', provider: 'sandbox', sendIdQueue: b.queueId }),
    error: 'ERR_NO_QUEUE_FOUND',
  },
  {
    method: 'POST',
    url: () => '/whatsapp',
    payload: (b) => ({ name: 'Ref A', provider: 'sandbox', promptId: b.promptId }),
    error: 'ERR_NO_PROMPT_FOUND',
  },
  {
    method: 'PUT',
    url: (a) => `/whatsapp/${a.whatsappId}`,
    payload: (b) => ({ queueIds: [b.queueId] }),
    error: 'ERR_NO_QUEUE_FOUND',
  },
  {
    method: 'PUT',
    url: (a) => `/whatsapp/${a.whatsappId}`,
    payload: (b) => ({ sendIdQueue: b.queueId }),
    error: 'ERR_NO_QUEUE_FOUND',
  },
  {
    method: 'PUT',
    url: (a) => `/whatsapp/${a.whatsappId}`,
    payload: (b) => ({ promptId: b.promptId }),
    error: 'ERR_NO_PROMPT_FOUND',
  },
  {
    method: 'POST',
    url: () => '/whatsapp',
    payload: (b) => ({ name: 'Ref A', provider: 'sandbox', integrationId: b.integrationId }),
    error: 'ERR_NO_INTEGRATION_FOUND',
  },
  {
    method: 'PUT',
    url: (a) => `/whatsapp/${a.whatsappId}`,
    payload: (b) => ({ integrationId: b.integrationId }),
    error: 'ERR_NO_INTEGRATION_FOUND',
  },
  // campaigns: the connection, then the contact list (tags and file lists: campaigns.test.ts)
  {
    method: 'POST',
    url: () => '/campaigns',
    payload: (b) => ({ ...campaignBody(), whatsappId: b.whatsappId, contactListId: b.contactListId }),
    error: 'ERR_NO_WAPP_FOUND',
  },
  {
    method: 'POST',
    url: () => '/campaigns',
    payload: (b, a) => ({ ...campaignBody(), whatsappId: a.whatsappId, contactListId: b.contactListId }),
    error: 'ERR_NO_CONTACT_LIST_FOUND',
  },
  // queues and their options
  {
    method: 'POST',
    url: () => '/queue',
    payload: (b) => ({ name: 'Fila ref', color: '#A0A0A1', promptId: b.promptId }),
    error: 'ERR_NO_PROMPT_FOUND',
  },
  {
    method: 'POST',
    url: () => '/queue',
    payload: (b) => ({ name: 'Fila ref', color: '#A0A0A1', integrationId: b.integrationId }),
    error: 'ERR_NO_INTEGRATION_FOUND',
  },
  {
    method: 'PUT',
    url: (a) => `/queue/${a.queueId}`,
    payload: (b) => ({ integrationId: b.integrationId }),
    error: 'ERR_NO_INTEGRATION_FOUND',
  },
  {
    method: 'PUT',
    url: (a) => `/queue/${a.queueId}`,
    payload: (b) => ({ promptId: b.promptId }),
    error: 'ERR_NO_PROMPT_FOUND',
  },
  {
    method: 'POST',
    url: () => '/queue-options',
    payload: (b) => ({ queueId: b.queueId, title: 'Ref' }),
    error: 'ERR_NO_QUEUE_FOUND',
  },
  {
    method: 'POST',
    url: () => '/queue-options',
    payload: (b, a) => ({ queueId: a.queueId, parentId: b.queueOptionId, title: 'Ref' }),
    error: 'ERR_NO_QUEUE_OPTION_FOUND',
  },
  // tickets: create, update, transfer
  {
    method: 'POST',
    url: () => '/tickets',
    payload: (b) => ({ contactId: b.contactId }),
    error: 'ERR_NO_CONTACT_FOUND',
  },
  {
    method: 'POST',
    url: () => '/tickets',
    payload: (b, a) => ({ contactId: a.contactId, whatsappId: b.whatsappId }),
    error: 'ERR_NO_WAPP_FOUND',
  },
  {
    method: 'POST',
    url: () => '/tickets',
    payload: (b, a) => ({ contactId: a.contactId, queueId: b.queueId }),
    error: 'ERR_NO_QUEUE_FOUND',
  },
  {
    method: 'POST',
    url: () => '/tickets',
    payload: (b, a) => ({ contactId: a.contactId, userId: b.userId }),
    error: 'ERR_NO_USER_FOUND',
  },
  {
    method: 'PUT',
    url: (a) => `/tickets/${a.ticketId}`,
    payload: (b) => ({ queueId: b.queueId }),
    error: 'ERR_NO_QUEUE_FOUND',
  },
  {
    method: 'PUT',
    url: (a) => `/tickets/${a.ticketId}`,
    payload: (b) => ({ userId: b.userId }),
    error: 'ERR_NO_USER_FOUND',
  },
  {
    method: 'PUT',
    url: (a) => `/tickets/${a.ticketId}`,
    payload: (b) => ({ queueId: null, userId: b.adminId, status: 'open' }),
    error: 'ERR_NO_USER_FOUND',
  },
  {
    method: 'PUT',
    url: (a) => `/tickets/${a.ticketId}`,
    payload: (b) => ({ whatsappId: b.whatsappId }),
    error: 'ERR_NO_WAPP_FOUND',
  },
  {
    method: 'PUT',
    url: (a) => `/tickets/${a.ticketId}`,
    payload: (b) => ({ promptId: b.promptId }),
    error: 'ERR_NO_PROMPT_FOUND',
  },
  {
    method: 'PUT',
    url: (a) => `/tickets/${a.ticketId}`,
    payload: (b) => ({ integrationId: b.integrationId }),
    error: 'ERR_NO_INTEGRATION_FOUND',
  },
  // tags, notes and quoted messages of a ticket
  {
    method: 'POST',
    url: () => '/tags/sync',
    payload: (b, a) => ({ ticketId: a.ticketId, tags: [{ id: b.tagId }] }),
    error: 'ERR_NO_TAG_FOUND',
  },
  {
    method: 'POST',
    url: () => '/ticket-notes',
    payload: (b, a) => ({ note: 'Ref', ticketId: a.ticketId, contactId: b.contactId }),
    error: 'ERR_NO_CONTACT_FOUND',
  },
  {
    method: 'POST',
    url: (a) => `/messages/${a.ticketId}`,
    payload: (b) => ({ body: 'Ref', quotedMsg: { id: b.messageId } }),
    error: 'ERR_NO_MESSAGE_FOUND',
  },
  // a file list sent into A's own ticket (beyond the spec, DOMAIN §15)
  {
    method: 'POST',
    url: (a, b) => `/messages/${a.ticketId}/file-list/${b.fileListId}`,
    payload: () => ({}),
    error: 'ERR_NO_FILE_LIST_FOUND',
  },
];

const campaignBody = () => ({ name: 'Ref campaign', scheduledAt: '2099-01-01 10:00:00', message1: 'Ref' });

let userSeq = 0;
const newUserBody = () => ({ name: 'Ref user', email: `ref-${++userSeq}@a.test`, password: 'ref-pass' });

/** B's OpenAI key: never in any reply, not even to B. */
const SECRET_OPENAI_KEY = 'sk-secret-of-b-0123456789';
/** B's plain user's personal token of the chat-assistant widget. */
const SECRET_ASSISTANT_TOKEN = 'sk-widget-secret-of-b-0123456789';

/** The number of B's contact, who also wrote B's secret message. */
const SECRET_NUMBER = '5599912345678';
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** A route's request as A sends it. */
async function requestOf(
  route: Route,
  b: Target,
): Promise<{ payload?: object | Buffer; headers: Record<string, string> }> {
  if (!route.multipart) {
    return { payload: typeof route.payload === 'function' ? route.payload(b) : route.payload, headers: {} };
  }
  const form = new FormData();
  form.append('file', new Blob([Buffer.from(PNG_BASE64, 'base64')], { type: 'image/png' }), 'a.png');
  const request = new Request('http://local/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type') as string },
  };
}

/** Test names show ids as placeholders: `/users/:userId`. */
const placeholder = <T extends object>() => new Proxy({}, { get: (_t, key) => `:${String(key)}` }) as T;
const placeholdersOfB = placeholder<Target>();
const placeholdersOfA = placeholder<OwnOfA>();
/** B's webhook signing key: never in any reply to A. */
let signingSecretOfB = '';

let server: TestServer;
let a: Tenant;
let b: Tenant;
let target: Target;
let secretsOfB: string[];
/** The super user's session, for the platform's records (announcements). */
let superUser: Session;

const call = (session: Session, method: Method, url: string, payload?: object) =>
  server.app.inject({ method, url, payload, headers: session.headers });

/** B's records the routes aim at. New modules create theirs here. */
async function seedB(tenant: Tenant): Promise<Target> {
  const created = async (url: string, payload: object) => {
    const res = await call(tenant.admin, 'POST', url, payload);
    expect(res.statusCode, `${url} ${res.body}`).toBe(201);
    return res.json();
  };
  const whatsappId = await connectedSandbox(server, tenant.admin, { name: 'Conexão secreta de B' });
  const queueId = (await created('/queue', { name: 'Fila secreta de B', color: '#B0B0B0' })).id;
  const queueOptionId = (await created('/queue-options', { queueId, title: 'Opção secreta de B' })).id;
  const tagId = (await created('/tags', { name: 'Etiqueta secreta de B' })).id;
  await contactWrites(server, tenant.admin, whatsappId, {
    number: SECRET_NUMBER,
    name: 'Contato secreto de B',
    body: 'Mensagem secreta de B',
    media: { fileName: 'b.png', mimetype: 'image/png', base64: PNG_BASE64 },
  });
  const [ticket] = (await call(tenant.admin, 'GET', '/tickets?status=pending')).json().tickets;
  const [message] = (await call(tenant.admin, 'GET', `/messages/${ticket.id}`)).json().messages;
  const noteId = (
    await created('/ticket-notes', { note: 'Nota secreta de B', ticketId: ticket.id, contactId: ticket.contactId })
  ).id;
  const quickMessageId = (await created('/quick-messages', { shortcode: 'segredo', message: 'Resposta secreta de B' }))
    .id;
  const scheduleId = (
    await created('/schedules', {
      body: 'Agendamento secreto de B',
      contactId: ticket.contactId,
      sendAt: '2099-01-01T00:00:00Z',
    })
  ).id;
  const fileListId = (
    await created('/files', {
      name: 'Arquivos secretos de B',
      message: 'Mensagem dos arquivos de B',
      options: [{ name: 'Opção de arquivo de B' }],
    })
  ).id;
  const contactListId = (await created('/contact-lists', { name: 'Lista secreta de B' })).id;
  const contactListItemId = (
    await created('/contact-list-items', { name: 'Item secreto de B', number: '5511977770099', contactListId })
  ).id;
  const campaignId = (
    await created('/campaigns', {
      name: 'Campanha secreta de B',
      contactListId,
      whatsappId,
      scheduledAt: '2099-01-01 10:00:00',
      message1: 'Mensagem da campanha de B',
    })
  ).id;
  const avatarForm = await requestOf({ method: 'POST', url: () => '', multipart: true }, {} as Target);
  const avatar = await server.app.inject({
    method: 'POST',
    url: `/users/${tenant.user.user.id}/avatar`,
    payload: avatarForm.payload,
    headers: { ...tenant.admin.headers, ...avatarForm.headers },
  });
  expect(avatar.statusCode, avatar.body).toBe(200);
  const su = await login(server, SUPER.email, SUPER.password);
  const help = await call(su, 'POST', '/helps', { title: 'Vídeo da plataforma', video: 'dQw4w9WgXcQ' });
  expect(help.statusCode, help.body).toBe(201);
  const announcement = await call(su, 'POST', '/announcements', {
    title: 'Anúncio secreto da plataforma',
    text: 'Rascunho',
    status: false,
  });
  expect(announcement.statusCode, announcement.body).toBe(201);
  const announcementId = announcement.json().id;
  const form = await requestOf({ method: 'POST', url: () => '', multipart: true }, {} as Target);
  const withMedia = await server.app.inject({
    method: 'POST',
    url: `/announcements/${announcementId}/media-upload`,
    payload: form.payload,
    headers: { ...su.headers, ...form.headers },
  });
  expect(withMedia.statusCode, withMedia.body).toBe(200);
  superUser = su;
  const chat = await created('/chats', { title: 'Conversa secreta de B', users: [{ id: tenant.user.user.id }] });
  const chatMessage = await call(tenant.user, 'POST', `/chats/${chat.id}/messages`, {
    message: 'Mensagem interna secreta de B',
  });
  expect(chatMessage.statusCode, chatMessage.body).toBe(201);
  const apiToken = (await call(tenant.admin, 'POST', `/whatsapp/${whatsappId}/token`)).json().token;
  const apiMessage = await server.app.inject({
    method: 'POST',
    url: '/api/messages/send',
    payload: { number: SECRET_NUMBER, body: 'Mensagem secreta de B pela API' },
    headers: { authorization: `Bearer ${apiToken}` },
  });
  expect(apiMessage.statusCode, apiMessage.body).toBe(201);
  const prompt = await created('/prompt', {
    name: 'Prompt secreto de B',
    prompt: 'Treinamento secreto de B: responda aos clientes de B com educação e poucas palavras.',
    apiKey: SECRET_OPENAI_KEY,
    queueId,
  });
  const integration = await created('/queueIntegration', {
    type: 'webhook',
    name: 'Integração secreta de B',
    urlN8N: 'https://hooks.example.com/segredo-de-b',
  });
  signingSecretOfB = integration.signingSecret;
  const soon = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
  await server.deps.database.db.update(companies).set({ dueDate: soon }).where(eq(companies.id, tenant.companyId));
  const [invoice] = (await call(tenant.admin, 'GET', '/invoices/all')).json().invoices;
  const charge = await call(tenant.admin, 'POST', '/subscription', {
    firstName: 'Faturamento secreto de B',
    address2: 'Rua secreta de B',
    city: 'Cidade',
    zipcode: '00000-000',
    country: 'BR',
    invoiceId: invoice.id,
  });
  expect(charge.statusCode, charge.body).toBe(200);
  const widgetAuth = await call(tenant.user, 'POST', '/assistant/auth', {
    username: tenant.user.user.email,
    password: tenant.userPassword,
  });
  expect(widgetAuth.statusCode, widgetAuth.body).toBe(200);
  const widgetToken = await call(tenant.user, 'PUT', '/assistant/token', { token: SECRET_ASSISTANT_TOKEN });
  expect(widgetToken.statusCode, widgetToken.body).toBe(200);
  return {
    companyId: tenant.companyId,
    adminId: tenant.admin.user.id,
    userId: tenant.user.user.id,
    whatsappId,
    contactId: ticket.contactId,
    queueId,
    queueOptionId,
    tagId,
    ticketId: ticket.id,
    ticketUuid: ticket.uuid,
    messageId: message.id,
    noteId,
    quickMessageId,
    scheduleId,
    fileListId,
    contactListId,
    contactListItemId,
    campaignId,
    mediaKey: String(message.mediaUrl).replace(/^\/media\//, ''),
    userAvatar: avatar.json().avatar,
    helpId: help.json().id,
    announcementId,
    announcementMediaPath: withMedia.json().mediaPath,
    chatId: chat.id,
    chatUuid: chat.uuid,
    apiMessageId: apiMessage.json().id,
    promptId: prompt.id,
    integrationId: integration.id,
    invoiceId: invoice.id,
    invoiceTxid: charge.json().txid,
  };
}

/** Everything B's own admin sees of the records above, to compare before and after. */
async function snapshotOfB() {
  const read = async (url: string) => {
    const res = await call(b.admin, 'GET', url);
    expect(res.statusCode, url).toBe(200);
    return res.json();
  };
  return {
    users: await read('/users'),
    admin: await read(`/users/${target.adminId}`),
    user: await read(`/users/${target.userId}`),
    company: await read(`/companies/${target.companyId}`),
    plan: await read(`/companies/listPlan/${target.companyId}`),
    settings: await read('/settings'),
    whatsapps: await read('/whatsapp'),
    outbound: await read(`/sandbox/${target.whatsappId}/outbound?number=${SECRET_NUMBER}`),
    contacts: await read('/contacts'),
    contact: await read(`/contacts/${target.contactId}`),
    queues: await read('/queue'),
    options: await read(`/queue-options?queueId=${target.queueId}`),
    children: await read(`/queue-options?queueId=${target.queueId}&parentId=${target.queueOptionId}`),
    tags: await read('/tags'),
    tickets: await read('/tickets?showAll=true'),
    ticket: await read(`/tickets/${target.ticketId}`),
    messages: await read(`/messages/${target.ticketId}`),
    notes: await read(`/ticket-notes/list?contactId=${target.contactId}`),
    quickMessages: await read('/quick-messages'),
    schedules: await read('/schedules'),
    fileLists: await read('/files'),
    contactLists: await read('/contact-lists'),
    contactListItems: await read(`/contact-list-items?contactListId=${target.contactListId}`),
    campaigns: await read('/campaigns/'),
    campaignSettings: await read('/campaign-settings'),
    helps: await read('/helps/list'),
    chats: await read('/chats'),
    chatMessages: await read(`/chats/${target.chatId}/messages`),
    prompts: await read('/prompt'),
    integrations: await read('/queueIntegration'),
    invoices: await read('/invoices/all'),
    integration: await read(`/queueIntegration/${target.integrationId}`),
    assistant: (await call(b.user, 'GET', '/assistant')).json(),
    announcement: (await call(superUser, 'GET', `/announcements/${target.announcementId}`)).json(),
    announcementMedia: (await call(superUser, 'GET', target.announcementMediaPath)).rawPayload.toString('base64'),
    media: (await call(b.admin, 'GET', `/media/${target.mediaKey}`)).rawPayload.toString('base64'),
    avatar: (await call(b.admin, 'GET', target.userAvatar)).rawPayload.toString('base64'),
  };
}

beforeAll(async () => {
  server = await createTestServer({ LOGIN_LIMIT_IP: '1000' });
  a = await createTenant(server);
  b = await createTenant(server);
  target = await seedB(b);
  const company = (await call(b.admin, 'GET', `/companies/${b.companyId}`)).json();
  secretsOfB = [
    b.admin.user.email,
    b.user.user.email,
    b.user.user.name,
    company.name,
    'Conexão secreta de B',
    SECRET_NUMBER,
    'Contato secreto de B',
    'Mensagem secreta de B',
    'Fila secreta de B',
    'Opção secreta de B',
    'Etiqueta secreta de B',
    'Arquivos secretos de B',
    'Lista secreta de B',
    'Item secreto de B',
    'Campanha secreta de B',
    'Mensagem da campanha de B',
    'Opção de arquivo de B',
    'Nota secreta de B',
    'Resposta secreta de B',
    'Conversa secreta de B',
    'Mensagem interna secreta de B',
    'Mensagem secreta de B pela API',
    'Prompt secreto de B',
    'Treinamento secreto de B',
    SECRET_OPENAI_KEY,
    SECRET_ASSISTANT_TOKEN,
    'Integração secreta de B',
    'segredo-de-b',
    'Faturamento secreto de B',
    'Rua secreta de B',
    signingSecretOfB,
    target.chatUuid,
    target.ticketUuid,
    target.userAvatar,
    // Not B's, but no company's user may read an inactive announcement.
    'Anúncio secreto da plataforma',
  ];
});
afterAll(() => server.close());

describe.each([
  { who: 'admin', session: () => a.admin },
  { who: 'plain user', session: () => a.user },
])("tenant A's $who with tenant B's ids", ({ session }) => {
  let before: Awaited<ReturnType<typeof snapshotOfB>>;
  beforeAll(async () => {
    before = await snapshotOfB();
  });

  it.each(routes.map((r) => ({ ...r, name: `${r.method} ${r.url(placeholdersOfB)}` })))(
    '$name → 403 or 404, no data of B',
    async (route) => {
      const { payload, headers } = await requestOf(route, target);
      const res = await server.app.inject({
        method: route.method,
        url: route.url(target),
        payload,
        headers: { ...session().headers, ...headers },
      });
      expect([403, 404], `${route.method} ${route.url(target)} answered ${res.statusCode} ${res.body}`).toContain(
        res.statusCode,
      );
      expect(res.json().error).toMatch(/^ERR_/);
      for (const secret of secretsOfB) expect(res.body).not.toContain(secret);
    },
  );

  it("leaves B's records unchanged", async () => {
    expect(await snapshotOfB()).toEqual(before);
  });
});

describe("tenant A's admin naming B's records in a body", () => {
  let own: OwnOfA;
  let before: { a: unknown; b: Awaited<ReturnType<typeof snapshotOfB>> };
  /** What A's admin sees of its own records: the refused calls must change none of it. */
  const snapshotOfA = async () => {
    const read = async (url: string) => (await call(a.admin, 'GET', url)).json();
    return {
      users: await read('/users'),
      whatsapps: await read('/whatsapp'),
      queues: await read('/queue'),
      options: await read(`/queue-options?queueId=${own.queueId}`),
      tickets: await read('/tickets?showAll=true'),
      notes: await read(`/ticket-notes/list?contactId=${own.contactId}`),
      messages: await read(`/messages/${own.ticketId}`),
      chats: await read('/chats'),
    };
  };
  beforeAll(async () => {
    const created = async (url: string, payload: object) => {
      const res = await call(a.admin, 'POST', url, payload);
      expect(res.statusCode, `${url} ${res.body}`).toBe(201);
      return res.json().id as number;
    };
    const whatsappId = await connectedSandbox(server, a.admin, { name: 'Conexão de A' });
    const queueId = await created('/queue', { name: 'Fila de A', color: '#A0A0A0' });
    const contactId = await created('/contacts', { name: 'Contato de A', number: '5511900000001' });
    const ticketId = await created('/tickets', { contactId, whatsappId, queueId });
    const chatId = await created('/chats', { title: 'Conversa de A', users: [{ id: a.user.user.id }] });
    own = { userId: a.user.user.id, whatsappId, queueId, contactId, ticketId, chatId };
    before = { a: await snapshotOfA(), b: await snapshotOfB() };
  });

  it.each(
    references.map((r) => ({
      ...r,
      // The path and the body's reference fields: `PUT /tickets/:ticketId userId`.
      name: `${r.method} ${r.url(placeholdersOfA, placeholdersOfB)} ${Object.keys(
        r.payload(placeholdersOfB, placeholdersOfA),
      )
        .filter((key) => /Id|^tags$|^quotedMsg$/.test(key))
        .join(', ')}`,
    })),
  )('$name → 404 $error', async (reference) => {
    const res = await call(a.admin, reference.method, reference.url(own, target), reference.payload(target, own));
    expect(res.statusCode, res.body).toBe(404);
    expect(res.json().error).toBe(reference.error);
  });

  it('changes nothing of A or B', async () => {
    expect({ a: await snapshotOfA(), b: await snapshotOfB() }).toEqual(before);
  });
});

describe("tenant A's connection token with B's ids (external API, DOMAIN §10)", () => {
  it("reads none of B's API messages and changes nothing of B", async () => {
    const before = await snapshotOfB();
    const whatsappId = await connectedSandbox(server, a.admin, { name: 'Conexão da API de A' });
    const token = (await call(a.admin, 'POST', `/whatsapp/${whatsappId}/token`)).json().token;
    for (const headers of [{ authorization: `Bearer ${token}` }, a.admin.headers]) {
      const res = await server.app.inject({ method: 'GET', url: `/api/messages/${target.apiMessageId}`, headers });
      expect([401, 404], res.body).toContain(res.statusCode);
      expect(res.json().error).toMatch(/^ERR_/);
      for (const secret of secretsOfB) expect(res.body).not.toContain(secret);
    }
    const sent = await server.app.inject({
      method: 'POST',
      url: '/api/messages/send',
      payload: { number: SECRET_NUMBER, body: 'De A pela API' },
      headers: { authorization: `Bearer ${token}` },
    });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json().contactId).not.toBe(target.contactId);
    expect(sent.json().ticketId).not.toBe(target.ticketId);
    expect(await snapshotOfB()).toEqual(before);
  });
});

describe("tenant A's chat-assistant widget (DOMAIN §19: no id in its paths, the caller's own rows only)", () => {
  it.each([
    { who: 'admin', session: () => a.admin },
    { who: 'plain user', session: () => a.user },
  ])("A's $who neither signs in with B's credentials nor reads or changes B's widget", async ({ session }) => {
    const before = await snapshotOfB();
    const refused = await call(session(), 'POST', '/assistant/auth', {
      username: b.user.user.email,
      password: b.userPassword,
    });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().error).toBe('ERR_ASSISTANT_INVALID_CREDENTIALS');
    const replies = [
      refused,
      await call(session(), 'GET', '/assistant'),
      await call(session(), 'PUT', '/assistant/token', { token: 'sk-hacked-by-a' }),
      await call(session(), 'POST', '/assistant/messages', { content: 'Hacked by A' }),
      await call(session(), 'POST', '/assistant/logout'),
    ];
    for (const res of replies) {
      for (const secret of secretsOfB) expect(res.body).not.toContain(secret);
    }
    expect(replies[1].json()).toMatchObject({ signedIn: false, hasToken: false, history: [] });
    expect(before.assistant).toMatchObject({ signedIn: true, hasToken: true });
    expect(await snapshotOfB()).toEqual(before);
  });
});

describe("tenant A's dashboard", () => {
  it("counts none of B's records and names none of B's people (DOMAIN §9)", async () => {
    const res = await call(a.admin, 'GET', '/dashboard?days=1');
    expect(res.statusCode, res.body).toBe(200);
    for (const secret of secretsOfB) expect(res.body).not.toContain(secret);
    const { counters, attendants } = res.json();
    const count = async (query: string) =>
      (await call(a.admin, 'GET', `/tickets?showAll=true&${query}`)).json().count as number;
    // B's contact wrote and left a pending ticket: A's live counters are A's tickets only.
    expect(counters.supportPending).toBe(await count('status=pending'));
    expect(counters.supportHappening).toBe(await count('status=open'));
    const ownUsers = (await call(a.admin, 'GET', '/users')).json().users.map((u: { id: number }) => u.id);
    expect(attendants.map((u: { id: number }) => u.id).sort()).toEqual(ownUsers.sort());
    expect((await call(a.user, 'GET', '/dashboard?days=1')).statusCode).toBe(403);
  });
});

describe('the harness itself', () => {
  it('would notice a route that leaks: B reads its own records through the same URLs', async () => {
    // Positive control: the ids are real, so the 403/404 above come from the tenancy checks.
    for (const route of routes.filter((r) => r.method === 'GET')) {
      const res = await call(route.reader === 'super' ? superUser : b.admin, 'GET', route.url(target));
      expect(res.statusCode, route.url(target)).toBe(200);
    }
  });

  it('A keeps working after the attempts', async () => {
    expect((await call(a.admin, 'GET', `/users/${a.user.user.id}`)).statusCode).toBe(200);
    expect((await call(a.user, 'GET', `/companies/${a.companyId}`)).statusCode).toBe(200);
  });
});
