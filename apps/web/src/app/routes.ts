import { matchPath } from 'react-router';
import { type Gate, gates } from './gates';

/** The private routes of spec §2: path, page title (i18n key) and gate. */
export interface AppRoute {
  path: string;
  titleKey: string;
  gate: Gate;
}

export const appRoutes: readonly AppRoute[] = [
  { path: '/', titleKey: 'pages.dashboard', gate: gates.admin },
  { path: '/tickets/:ticketId?', titleKey: 'pages.tickets', gate: gates.private },
  { path: '/quick-messages', titleKey: 'pages.quickMessages', gate: gates.private },
  { path: '/kanban', titleKey: 'pages.kanban', gate: gates.plan('useKanban') },
  { path: '/todolist', titleKey: 'pages.todolist', gate: gates.private },
  { path: '/contacts', titleKey: 'pages.contacts', gate: gates.private },
  { path: '/schedules', titleKey: 'pages.schedules', gate: gates.plan('useSchedules') },
  { path: '/tags', titleKey: 'pages.tags', gate: gates.private },
  { path: '/chats/:id?', titleKey: 'pages.chats', gate: gates.plan('useInternalChat') },
  { path: '/helps', titleKey: 'pages.helps', gate: gates.private },
  { path: '/campaigns', titleKey: 'pages.campaigns', gate: gates.campaigns },
  { path: '/contact-lists', titleKey: 'pages.contactLists', gate: gates.campaigns },
  { path: '/contact-lists/:contactListId/contacts', titleKey: 'pages.contactListItems', gate: gates.campaigns },
  { path: '/campaign/:campaignId/report', titleKey: 'pages.campaignReport', gate: gates.campaigns },
  { path: '/campaigns-config', titleKey: 'pages.campaignsConfig', gate: gates.campaigns },
  { path: '/announcements', titleKey: 'pages.announcements', gate: gates.super },
  { path: '/prompts', titleKey: 'pages.prompts', gate: gates.plan('useOpenAi') },
  { path: '/queue-integration', titleKey: 'pages.queueIntegration', gate: gates.plan('useIntegrations') },
  { path: '/connections', titleKey: 'pages.connections', gate: gates.private },
  { path: '/queues', titleKey: 'pages.queues', gate: gates.private },
  { path: '/users', titleKey: 'pages.users', gate: gates.private },
  { path: '/messages-api', titleKey: 'pages.messagesApi', gate: gates.plan('useExternalApi') },
  { path: '/financeiro', titleKey: 'pages.financeiro', gate: gates.private },
  { path: '/settings', titleKey: 'pages.settings', gate: gates.private },
  { path: '/subscription', titleKey: 'pages.subscription', gate: gates.private },
  { path: '/files', titleKey: 'pages.files', gate: gates.private },
  /** Plays a contact's phone on sandbox connections (servers with the sandbox on). */
  { path: '/sandbox', titleKey: 'pages.sandbox', gate: gates.admin },
];

/** The route a concrete location (e.g. a menu link) belongs to. */
export function routeOf(pathname: string): AppRoute | undefined {
  return appRoutes.find((route) => matchPath(route.path, pathname));
}
