import { type ComponentType, lazy, type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Route, Routes } from 'react-router';
import { ComingSoonPage } from '../components/ComingSoonPage';
import { lazyNamed } from '../components/lazyNamed';
import { AppLayout } from '../layout/AppLayout';
import { PublicOnly, RequireAuth, RequireGate } from './guards';
import { type AppRoute, appRoutes } from './routes';

const LegalPage = lazyNamed(() => import('../features/legal/LegalPage'), 'LegalPage');
const LoginPage = lazy(() => import('../features/auth/LoginPage'));
const UsersPage = lazy(() => import('../features/users/UsersPage'));
const SettingsPage = lazy(() => import('../features/settings/SettingsPage'));
const TicketsPage = lazy(() => import('../features/tickets/TicketsPage'));
const ConnectionsPage = lazy(() => import('../features/connections/ConnectionsPage'));
const ContactsPage = lazy(() => import('../features/contacts/ContactsPage'));
const QueuesPage = lazy(() => import('../features/queues/QueuesPage'));
const TagsPage = lazy(() => import('../features/tags/TagsPage'));
const QuickMessagesPage = lazy(() => import('../features/quick-messages/QuickMessagesPage'));
const FilesPage = lazy(() => import('../features/files/FilesPage'));
const ContactListsPage = lazy(() => import('../features/contact-lists/ContactListsPage'));
const ContactListItemsPage = lazy(() => import('../features/contact-lists/ContactListItemsPage'));
const SandboxPage = lazy(() => import('../features/sandbox/SandboxPage'));
const DashboardPage = lazy(() => import('../features/dashboard/DashboardPage'));
const HelpsPage = lazy(() => import('../features/helps/HelpsPage'));
const AnnouncementsPage = lazy(() => import('../features/announcements/AnnouncementsPage'));
const SchedulesPage = lazy(() => import('../features/schedules/SchedulesPage'));
const CampaignsPage = lazy(() => import('../features/campaigns/CampaignsPage'));
const CampaignReportPage = lazy(() => import('../features/campaigns/CampaignReportPage'));
const CampaignsConfigPage = lazy(() => import('../features/campaigns/CampaignsConfigPage'));
const TodoPage = lazy(() => import('../features/todo/TodoPage'));
const ChatsPage = lazy(() => import('../features/chats/ChatsPage'));
const KanbanPage = lazy(() => import('../features/kanban/KanbanPage'));
const MessagesApiPage = lazy(() => import('../features/messages-api/MessagesApiPage'));
const PromptsPage = lazy(() => import('../features/prompts/PromptsPage'));
const QueueIntegrationsPage = lazy(() => import('../features/queue-integrations/QueueIntegrationsPage'));
const FinanceiroPage = lazy(() => import('../features/billing/FinanceiroPage'));
const SubscriptionPage = lazy(() => import('../features/billing/SubscriptionPage'));

/** Screens built so far; every other route shows its "coming soon" page. */
const pages: Partial<Record<string, ComponentType>> = {
  '/': DashboardPage,
  '/users': UsersPage,
  '/settings': SettingsPage,
  '/tickets/:ticketId?': TicketsPage,
  '/connections': ConnectionsPage,
  '/contacts': ContactsPage,
  '/queues': QueuesPage,
  '/tags': TagsPage,
  '/quick-messages': QuickMessagesPage,
  '/files': FilesPage,
  '/contact-lists': ContactListsPage,
  '/contact-lists/:contactListId/contacts': ContactListItemsPage,
  '/sandbox': SandboxPage,
  '/helps': HelpsPage,
  '/announcements': AnnouncementsPage,
  '/schedules': SchedulesPage,
  '/campaigns': CampaignsPage,
  '/campaign/:campaignId/report': CampaignReportPage,
  '/campaigns-config': CampaignsConfigPage,
  '/todolist': TodoPage,
  '/chats/:id?': ChatsPage,
  '/kanban': KanbanPage,
  '/messages-api': MessagesApiPage,
  '/prompts': PromptsPage,
  '/queue-integration': QueueIntegrationsPage,
  '/financeiro': FinanceiroPage,
  '/subscription': SubscriptionPage,
};

function Titled({ titleKey, children }: { titleKey: string; children: ReactNode }) {
  const { t } = useTranslation();
  const title = t(titleKey);
  useEffect(() => {
    document.title = `${title} · Balcão`;
  }, [title]);
  return children;
}

function routeElement({ path, titleKey, gate }: AppRoute) {
  const Page = pages[path];
  return (
    <RequireGate gate={gate}>
      <Titled titleKey={titleKey}>{Page ? <Page /> : <ComingSoonPage titleKey={titleKey} />}</Titled>
    </RequireGate>
  );
}

/** The routes table of spec §2. */
export function AppRoutes() {
  return (
    <Routes>
      <Route
        path="/login"
        element={
          <PublicOnly>
            <Titled titleKey="login.title">
              <LoginPage />
            </Titled>
          </PublicOnly>
        }
      />
      <Route path="/term" element={<LegalPage kind="terms" />} />
      <Route path="/privacy" element={<LegalPage kind="privacy" />} />
      <Route
        element={
          <RequireAuth>
            <AppLayout />
          </RequireAuth>
        }
      >
        {appRoutes.map((route) => (
          <Route key={route.path} path={route.path} element={routeElement(route)} />
        ))}
      </Route>
      <Route path="*" element={<Navigate to="/" replace />} />
    </Routes>
  );
}
