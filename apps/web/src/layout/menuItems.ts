import { can, type SessionUser } from '@balcao/shared';
import type { SvgIconComponent } from '@mui/icons-material';
import AccountTree from '@mui/icons-material/AccountTree';
import AllInclusive from '@mui/icons-material/AllInclusive';
import Announcement from '@mui/icons-material/Announcement';
import Api from '@mui/icons-material/Api';
import AttachFile from '@mui/icons-material/AttachFile';
import Campaign from '@mui/icons-material/Campaign';
import ContactPhone from '@mui/icons-material/ContactPhone';
import Dashboard from '@mui/icons-material/Dashboard';
import DeviceHub from '@mui/icons-material/DeviceHub';
import EventAvailable from '@mui/icons-material/EventAvailable';
import Forum from '@mui/icons-material/Forum';
import HelpOutline from '@mui/icons-material/HelpOutlineOutlined';
import ListAlt from '@mui/icons-material/ListAlt';
import LocalAtm from '@mui/icons-material/LocalAtm';
import LocalOffer from '@mui/icons-material/LocalOffer';
import People from '@mui/icons-material/People';
import PeopleAlt from '@mui/icons-material/PeopleAlt';
import PhoneAndroid from '@mui/icons-material/PhoneAndroid';
import QuestionAnswer from '@mui/icons-material/QuestionAnswer';
import Settings from '@mui/icons-material/Settings';
import SettingsOutlined from '@mui/icons-material/SettingsOutlined';
import SyncAlt from '@mui/icons-material/SyncAlt';
import TaskAlt from '@mui/icons-material/TaskAlt';
import ViewKanban from '@mui/icons-material/ViewKanban';
import WhatsApp from '@mui/icons-material/WhatsApp';
import type { ComponentType, ReactNode } from 'react';
import { passesGate } from '../app/gates';
import { routeOf } from '../app/routes';
import { lazyNamed } from '../components/lazyNamed';

// The warning statuses come with the connection schemas (zod): loaded after the shell, as the badge
// only shows 2 s after a warning anyway.
const ConnectionWarningBadge = lazyNamed(
  () => import('../features/connections/ConnectionWarningBadge'),
  'ConnectionWarningBadge',
);

export interface MenuLink {
  /** Used in `data-testid="menu-item-<key>"`. */
  key: string;
  to: string;
  labelKey: string;
  icon: SvgIconComponent;
  /** Wraps the icon, e.g. with a live warning badge. */
  badge?: ComponentType<{ children: ReactNode }>;
}

export interface MenuGroup {
  key: string;
  labelKey: string;
  icon: SvgIconComponent;
  children: MenuLink[];
}

export type MenuEntry = MenuLink | MenuGroup;

export function isGroup(entry: MenuEntry): entry is MenuGroup {
  return 'children' in entry;
}

/** Service section: shown to everyone. */
export const serviceMenu: MenuEntry[] = [
  { key: 'tickets', to: '/tickets', labelKey: 'pages.tickets', icon: WhatsApp },
  { key: 'quick-messages', to: '/quick-messages', labelKey: 'pages.quickMessages', icon: QuestionAnswer },
  { key: 'kanban', to: '/kanban', labelKey: 'pages.kanban', icon: ViewKanban },
  { key: 'todolist', to: '/todolist', labelKey: 'pages.todolist', icon: TaskAlt },
  { key: 'contacts', to: '/contacts', labelKey: 'pages.contacts', icon: ContactPhone },
  { key: 'schedules', to: '/schedules', labelKey: 'pages.schedules', icon: EventAvailable },
  { key: 'tags', to: '/tags', labelKey: 'pages.tags', icon: LocalOffer },
  { key: 'chats', to: '/chats', labelKey: 'pages.chats', icon: Forum },
  { key: 'helps', to: '/helps', labelKey: 'pages.helps', icon: HelpOutline },
];

/** Administration section: shown to admins only. */
export const adminMenu: MenuEntry[] = [
  { key: 'dashboard', to: '/', labelKey: 'pages.dashboard', icon: Dashboard },
  {
    key: 'campaigns',
    labelKey: 'pages.campaigns',
    icon: Campaign,
    children: [
      { key: 'campaigns-list', to: '/campaigns', labelKey: 'menu.campaignsList', icon: ListAlt },
      { key: 'contact-lists', to: '/contact-lists', labelKey: 'menu.campaignsContactLists', icon: People },
      { key: 'campaigns-config', to: '/campaigns-config', labelKey: 'menu.campaignsConfig', icon: SettingsOutlined },
    ],
  },
  { key: 'announcements', to: '/announcements', labelKey: 'pages.announcements', icon: Announcement },
  { key: 'prompts', to: '/prompts', labelKey: 'pages.prompts', icon: AllInclusive },
  { key: 'queue-integration', to: '/queue-integration', labelKey: 'pages.queueIntegration', icon: DeviceHub },
  {
    key: 'connections',
    to: '/connections',
    labelKey: 'pages.connections',
    icon: SyncAlt,
    badge: ConnectionWarningBadge,
  },
  { key: 'queues', to: '/queues', labelKey: 'pages.queues', icon: AccountTree },
  { key: 'users', to: '/users', labelKey: 'pages.users', icon: PeopleAlt },
  { key: 'messages-api', to: '/messages-api', labelKey: 'pages.messagesApi', icon: Api },
  { key: 'financeiro', to: '/financeiro', labelKey: 'pages.financeiro', icon: LocalAtm },
  { key: 'settings', to: '/settings', labelKey: 'pages.settings', icon: Settings },
  { key: 'files', to: '/files', labelKey: 'pages.files', icon: AttachFile },
  { key: 'sandbox', to: '/sandbox', labelKey: 'pages.sandbox', icon: PhoneAndroid },
];

function linkAllowed(link: MenuLink, user: SessionUser): boolean {
  const route = routeOf(link.to);
  return route ? passesGate(route.gate, user) : true;
}

/** The entries a user may open: each link passes its route's gate; a group needs a visible link. */
export function visibleEntries(entries: MenuEntry[], user: SessionUser): MenuEntry[] {
  return entries.flatMap((entry): MenuEntry[] => {
    if (!isGroup(entry)) return linkAllowed(entry, user) ? [entry] : [];
    const children = entry.children.filter((child) => linkAllowed(child, user));
    return children.length > 0 ? [{ ...entry, children }] : [];
  });
}

export function showsAdminSection(user: SessionUser): boolean {
  return can(user.profile, 'drawer-admin-items:view');
}
