import { MOBILE_BREAKPOINT_PX } from '@balcao/shared';
import Box from '@mui/material/Box';
import useMediaQuery from '@mui/material/useMediaQuery';
import { Suspense, useState } from 'react';
import { Outlet } from 'react-router';
import { useSessionUser } from '../app/AuthContext';
import { FullPageLoader } from '../components/FullPageLoader';
import { lazyNamed } from '../components/lazyNamed';
import { useFirstGesture } from '../features/notifications/useFirstGesture';
import { useSettingsRealtime } from '../features/settings/useSettingsRealtime';
import { useNotificationCount, useTicketNotifications } from '../features/tickets/notifications';
import { useUsersRealtime } from '../features/users/useUsersRealtime';
import { AppDrawer } from './AppDrawer';
import { TopBar } from './TopBar';
import { useTitleCount } from './title';

// The warning statuses come with the connection schemas (zod); the banner waits 2 s before showing anyway.
const ConnectionDownBanner = lazyNamed(
  () => import('../features/connections/ConnectionDownBanner'),
  'ConnectionDownBanner',
);

/** The live subscriptions of every private screen; the notifications (bell, sound, OS notice, title) run only here. */
function RealtimeSubscriptions() {
  const me = useSessionUser();
  useUsersRealtime();
  useSettingsRealtime();
  useTicketNotifications(me);
  useFirstGesture();
  useTitleCount(useNotificationCount());
  return null;
}

/** The shell of every private screen: drawer, top bar and the routed page. */
export function AppLayout() {
  const mobile = useMediaQuery(`(max-width:${MOBILE_BREAKPOINT_PX - 0.05}px)`, { noSsr: true });
  // Wide screens keep the drawer open or collapsed; narrow ones show it only on demand.
  const [wideOpen, setWideOpen] = useState(true);
  const [narrowOpen, setNarrowOpen] = useState(false);
  const drawerOpen = mobile ? narrowOpen : wideOpen;
  const setDrawerOpen = mobile ? setNarrowOpen : setWideOpen;

  return (
    <Box sx={{ display: 'flex', height: '100dvh', bgcolor: 'background.default' }}>
      <RealtimeSubscriptions />
      <AppDrawer
        open={drawerOpen}
        mobile={mobile}
        onToggle={() => setDrawerOpen((open) => !open)}
        onNavigate={() => setNarrowOpen(false)}
      />
      <Box sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
        <TopBar showMenuButton={mobile} onOpenDrawer={() => setNarrowOpen(true)} />
        <Suspense fallback={null}>
          <ConnectionDownBanner />
        </Suspense>
        <Box component="main" sx={{ flex: 1, minHeight: 0, overflow: 'auto' }} data-testid="main-content">
          <Suspense fallback={<FullPageLoader />}>
            <Outlet />
          </Suspense>
        </Box>
      </Box>
    </Box>
  );
}
