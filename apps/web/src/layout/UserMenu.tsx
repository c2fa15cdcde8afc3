import Logout from '@mui/icons-material/Logout';
import Person from '@mui/icons-material/Person';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Tooltip from '@mui/material/Tooltip';
import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth, useSessionUser } from '../app/AuthContext';
import { lazyNamed } from '../components/lazyNamed';
import { PersonAvatar } from '../components/PersonAvatar';
import { useOnceTrue } from '../components/useOnceTrue';

// The form (react-hook-form, zod) loads when the profile is first opened, not with every screen.
const UserModal = lazyNamed(() => import('../features/users/UserModal'), 'UserModal');

/** Profile menu of the top bar: "Perfil" opens the user dialog for oneself, "Sair" logs out. */
export function UserMenu() {
  const { t } = useTranslation();
  const me = useSessionUser();
  const { logout } = useAuth();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [profileOpen, setProfileOpen] = useState(false);
  const profileMounted = useOnceTrue(profileOpen);

  return (
    <>
      <Tooltip title={t('topbar.userMenu')}>
        <IconButton
          color="inherit"
          onClick={(event) => setAnchor(event.currentTarget)}
          aria-label={t('topbar.userMenu')}
          aria-haspopup="menu"
          data-testid="user-menu"
        >
          <PersonAvatar name={me.name} src={me.avatar} size={30} sx={{ bgcolor: 'primary.dark' }} />
        </IconButton>
      </Tooltip>
      <Menu
        anchorEl={anchor}
        open={anchor !== null}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        <MenuItem
          onClick={() => {
            setAnchor(null);
            setProfileOpen(true);
          }}
          data-testid="user-menu-profile"
        >
          <ListItemIcon>
            <Person fontSize="small" />
          </ListItemIcon>
          {t('topbar.profile')}
        </MenuItem>
        <MenuItem
          onClick={() => {
            setAnchor(null);
            void logout();
          }}
          data-testid="user-menu-logout"
        >
          <ListItemIcon>
            <Logout fontSize="small" />
          </ListItemIcon>
          {t('topbar.logout')}
        </MenuItem>
      </Menu>
      {profileMounted && (
        <Suspense fallback={null}>
          <UserModal open={profileOpen} userId={me.id} onClose={() => setProfileOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
