import { APP_VERSION, DRAWER_WIDTH_PX } from '@balcao/shared';
import ChevronLeft from '@mui/icons-material/ChevronLeft';
import ChevronRight from '@mui/icons-material/ChevronRight';
import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import Logout from '@mui/icons-material/Logout';
import Box from '@mui/material/Box';
import Collapse from '@mui/material/Collapse';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import Stack from '@mui/material/Stack';
import Toolbar from '@mui/material/Toolbar';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useAuth, useSessionUser } from '../app/AuthContext';
import { PersonAvatar } from '../components/PersonAvatar';
import {
  adminMenu,
  isGroup,
  type MenuGroup,
  type MenuLink,
  serviceMenu,
  showsAdminSection,
  visibleEntries,
} from './menuItems';

/** Width of the collapsed (icons only) drawer on wide screens. */
const MINI_DRAWER_WIDTH_PX = 72;

interface AppDrawerProps {
  open: boolean;
  mobile: boolean;
  onToggle: () => void;
  /** Called after a menu item is chosen (closes the drawer on narrow screens). */
  onNavigate: () => void;
}

function isActive(pathname: string, to: string): boolean {
  return to === '/' ? pathname === '/' : pathname === to || pathname.startsWith(`${to}/`);
}

function MenuLinkItem({
  link,
  compact,
  nested,
  onNavigate,
}: {
  link: MenuLink;
  compact: boolean;
  nested?: boolean;
  onNavigate: () => void;
}) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const Icon = link.icon;
  const Badge = link.badge;
  const label = t(link.labelKey);
  return (
    <Tooltip title={compact ? label : ''} placement="right">
      <ListItemButton
        component={Link}
        to={link.to}
        selected={isActive(pathname, link.to)}
        onClick={onNavigate}
        data-testid={`menu-item-${link.key}`}
        sx={{ pl: nested && !compact ? 4 : 2.5, minHeight: 44 }}
      >
        <ListItemIcon sx={{ minWidth: 40 }}>
          {Badge ? (
            // A lazily loaded badge: the bare icon meanwhile.
            <Suspense fallback={<Icon fontSize="small" />}>
              <Badge>
                <Icon fontSize="small" />
              </Badge>
            </Suspense>
          ) : (
            <Icon fontSize="small" />
          )}
        </ListItemIcon>
        {!compact && <ListItemText primary={label} />}
      </ListItemButton>
    </Tooltip>
  );
}

function MenuGroupItem({ group, compact, onNavigate }: { group: MenuGroup; compact: boolean; onNavigate: () => void }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const [expanded, setExpanded] = useState(() => group.children.some((c) => isActive(pathname, c.to)));
  const Icon = group.icon;
  const label = t(group.labelKey);
  return (
    <>
      <Tooltip title={compact ? label : ''} placement="right">
        <ListItemButton
          onClick={() => setExpanded((e) => !e)}
          aria-expanded={expanded}
          data-testid={`menu-item-${group.key}`}
          sx={{ pl: 2.5, minHeight: 44 }}
        >
          <ListItemIcon sx={{ minWidth: 40 }}>
            <Icon fontSize="small" />
          </ListItemIcon>
          {!compact && <ListItemText primary={label} />}
          {expanded ? <ExpandLess fontSize="small" /> : <ExpandMore fontSize="small" />}
        </ListItemButton>
      </Tooltip>
      <Collapse in={expanded} timeout="auto" unmountOnExit>
        <List disablePadding>
          {group.children.map((child) => (
            <MenuLinkItem key={child.key} link={child} compact={compact} nested onNavigate={onNavigate} />
          ))}
        </List>
      </Collapse>
    </>
  );
}

function MenuSection({
  title,
  entries,
  compact,
  onNavigate,
  testId,
}: {
  title: string;
  entries: ReturnType<typeof visibleEntries>;
  compact: boolean;
  onNavigate: () => void;
  testId: string;
}) {
  return (
    <List
      dense
      data-testid={testId}
      subheader={
        compact ? (
          <Divider sx={{ my: 1 }} />
        ) : (
          <ListSubheader sx={{ bgcolor: 'transparent', lineHeight: '36px', fontWeight: 700, letterSpacing: 0.6 }}>
            {title}
          </ListSubheader>
        )
      }
    >
      {entries.map((entry) =>
        isGroup(entry) ? (
          <MenuGroupItem key={entry.key} group={entry} compact={compact} onNavigate={onNavigate} />
        ) : (
          <MenuLinkItem key={entry.key} link={entry} compact={compact} onNavigate={onNavigate} />
        ),
      )}
    </List>
  );
}

function UserPanel({ compact }: { compact: boolean }) {
  const { t } = useTranslation();
  const me = useSessionUser();
  const { logout } = useAuth();
  return (
    <Box sx={{ borderTop: 1, borderColor: 'divider' }}>
      <Stack
        direction="row"
        spacing={1.5}
        sx={{ alignItems: 'center', px: compact ? 2 : 2.5, py: 1.5 }}
        data-testid="user-panel"
      >
        <PersonAvatar name={me.name} src={me.avatar} size={38} sx={{ bgcolor: 'primary.main' }} />
        {!compact && (
          <Box sx={{ minWidth: 0 }}>
            <Typography variant="subtitle2" noWrap data-testid="user-panel-name">
              {me.name}
            </Typography>
            <Typography variant="caption" color="text.secondary" noWrap data-testid="user-panel-profile">
              {t(`menu.profiles.${me.profile}`)}
            </Typography>
          </Box>
        )}
      </Stack>
      <List dense disablePadding>
        <Tooltip title={compact ? t('menu.logout') : ''} placement="right">
          <ListItemButton onClick={() => void logout()} data-testid="drawer-logout" sx={{ pl: 2.5, minHeight: 44 }}>
            <ListItemIcon sx={{ minWidth: 40 }}>
              <Logout fontSize="small" />
            </ListItemIcon>
            {!compact && <ListItemText primary={t('menu.logout')} />}
          </ListItemButton>
        </Tooltip>
      </List>
      <Typography
        variant="caption"
        color="text.secondary"
        component="p"
        sx={{ textAlign: 'center', pb: 1 }}
        data-testid="app-version"
      >
        {APP_VERSION}
      </Typography>
    </Box>
  );
}

/**
 * The side menu (spec §2, "Shell"): 240 px, collapsible to icons on wide screens, a temporary
 * drawer below 600 px. Service section for everyone, administration section for admins.
 */
export function AppDrawer({ open, mobile, onToggle, onNavigate }: AppDrawerProps) {
  const { t } = useTranslation();
  const me = useSessionUser();
  const compact = !mobile && !open;
  const width = compact ? MINI_DRAWER_WIDTH_PX : DRAWER_WIDTH_PX;

  return (
    <Drawer
      variant={mobile ? 'temporary' : 'permanent'}
      open={mobile ? open : true}
      onClose={onToggle}
      sx={{
        width: mobile ? undefined : width,
        flexShrink: 0,
        '& .MuiDrawer-paper': {
          width,
          boxSizing: 'border-box',
          overflowX: 'hidden',
          transition: (theme) => theme.transitions.create('width', { duration: theme.transitions.duration.shorter }),
        },
      }}
    >
      <Box
        sx={{ display: 'flex', flexDirection: 'column', height: '100%' }}
        data-testid="app-drawer"
        data-state={compact ? 'collapsed' : 'open'}
      >
        <Toolbar sx={{ justifyContent: compact ? 'center' : 'space-between', px: 2 }}>
          {!compact && (
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <Box component="img" src="/favicon.svg" alt="" sx={{ width: 30, height: 30 }} />
              <Typography variant="h6" sx={{ fontWeight: 800, color: 'primary.main' }}>
                Balcão
              </Typography>
            </Stack>
          )}
          <IconButton
            onClick={onToggle}
            aria-label={t(compact ? 'menu.expand' : 'menu.collapse')}
            data-testid="drawer-toggle"
          >
            {compact ? <ChevronRight /> : <ChevronLeft />}
          </IconButton>
        </Toolbar>
        <Divider />
        <Box sx={{ flex: 1, overflowY: 'auto', overflowX: 'hidden' }}>
          <MenuSection
            title={t('menu.service')}
            entries={visibleEntries(serviceMenu, me)}
            compact={compact}
            onNavigate={onNavigate}
            testId="menu-service"
          />
          {showsAdminSection(me) && (
            <MenuSection
              title={t('menu.administration')}
              entries={visibleEntries(adminMenu, me)}
              compact={compact}
              onNavigate={onNavigate}
              testId="menu-admin"
            />
          )}
        </Box>
        <UserPanel compact={compact} />
      </Box>
    </Drawer>
  );
}
