import { can, formatDueDate } from '@balcao/shared';
import DarkMode from '@mui/icons-material/DarkMode';
import EventAvailable from '@mui/icons-material/EventAvailable';
import HelpOutline from '@mui/icons-material/HelpOutlineOutlined';
import LightMode from '@mui/icons-material/LightMode';
import MenuIcon from '@mui/icons-material/Menu';
import Refresh from '@mui/icons-material/Refresh';
import AppBar from '@mui/material/AppBar';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Toolbar from '@mui/material/Toolbar';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { Trans, useTranslation } from 'react-i18next';
import { useSessionUser } from '../app/AuthContext';
import { useColorMode } from '../app/ColorModeProvider';
import { planAllows } from '../app/gates';
import { HELP_URL } from '../app/links';
import { AssistantWidget } from '../features/assistant/AssistantWidget';
import { ChatsPopover } from '../features/chats/ChatsPopover';
import { AnnouncementsPopover } from './AnnouncementsPopover';
import { LanguageMenu } from './LanguageMenu';
import { NotificationsPopover } from './NotificationsPopover';
import { UserMenu } from './UserMenu';
import { VolumeControl } from './VolumeControl';

/**
 * On phones the bar holds nine buttons otherwise, wider than a 375 px screen: reload (the browser
 * has its own) and the help link give way below `sm`.
 */
const PHONE_HIDDEN = { display: { xs: 'none', sm: 'inline-flex' } };

interface TopBarProps {
  /** Shows the button that opens the drawer (narrow screens, where the drawer is temporary). */
  showMenuButton: boolean;
  onOpenDrawer: () => void;
}

export function TopBar({ showMenuButton, onOpenDrawer }: TopBarProps) {
  const { t } = useTranslation();
  const me = useSessionUser();
  const { mode, toggleMode } = useColorMode();
  const dueDate = can(me.profile, 'dashboard:view') ? me.company.dueDate : null;

  return (
    <AppBar
      position="sticky"
      color="inherit"
      sx={{ borderBottom: 1, borderColor: 'divider', bgcolor: 'background.paper' }}
      data-testid="top-bar"
    >
      <Toolbar sx={{ gap: 1 }}>
        {showMenuButton && (
          <IconButton edge="start" onClick={onOpenDrawer} aria-label={t('topbar.openDrawer')} data-testid="drawer-open">
            <MenuIcon />
          </IconButton>
        )}
        <Typography
          variant="body1"
          noWrap
          sx={{ flexGrow: 1, minWidth: 0, display: { xs: 'none', sm: 'block' } }}
          data-testid="greeting"
        >
          <Trans
            i18nKey="topbar.greeting"
            values={{ name: me.name, company: me.company.name }}
            components={{ b: <b /> }}
          />
        </Typography>
        <Stack direction="row" sx={{ alignItems: 'center', ml: 'auto', gap: 0.5 }}>
          {dueDate && (
            <Chip
              icon={<EventAvailable />}
              size="small"
              color="primary"
              variant="outlined"
              label={t('topbar.activeUntil', { date: formatDueDate(dueDate) })}
              sx={{ mr: 1, display: { xs: 'none', md: 'flex' } }}
              data-testid="due-date"
            />
          )}
          <Tooltip title={t(mode === 'dark' ? 'topbar.lightMode' : 'topbar.darkMode')}>
            <IconButton
              color="inherit"
              onClick={toggleMode}
              aria-label={t(mode === 'dark' ? 'topbar.lightMode' : 'topbar.darkMode')}
              data-testid="theme-toggle"
              data-mode={mode}
            >
              {mode === 'dark' ? <LightMode /> : <DarkMode />}
            </IconButton>
          </Tooltip>
          <NotificationsPopover />
          <AnnouncementsPopover />
          {planAllows(me, 'useInternalChat') && <ChatsPopover />}
          <AssistantWidget />
          <VolumeControl />
          <Tooltip title={t('topbar.reload')}>
            <IconButton
              color="inherit"
              onClick={() => window.location.reload()}
              aria-label={t('topbar.reload')}
              data-testid="reload-button"
              sx={PHONE_HIDDEN}
            >
              <Refresh />
            </IconButton>
          </Tooltip>
          <Tooltip title={t('topbar.help')}>
            <IconButton
              color="inherit"
              component="a"
              href={HELP_URL}
              target="_blank"
              rel="noopener noreferrer"
              aria-label={t('topbar.help')}
              data-testid="help-link"
              sx={PHONE_HIDDEN}
            >
              <HelpOutline />
            </IconButton>
          </Tooltip>
          <LanguageMenu />
          <UserMenu />
        </Stack>
      </Toolbar>
    </AppBar>
  );
}
