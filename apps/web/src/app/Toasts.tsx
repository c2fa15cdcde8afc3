import { TOAST_MS, TOAST_MS_EXTENDED } from '@balcao/shared';
import GlobalStyles from '@mui/material/GlobalStyles';
import { matchPath, useLocation } from 'react-router';
import { ToastContainer } from 'react-toastify';
import { useColorMode } from './ColorModeProvider';

/** The top bar's height (MUI toolbar: 56px on phones, 64px from `sm`) plus an 8px gap. */
const BELOW_TOP_BAR = { xs: '64px', sm: '72px' };

/**
 * Toasts at the top centre, just under the top bar: they never cover its controls (right) nor a
 * dialog's buttons (bottom, and full-screen dialogs' bottom on phones). On phones they span the
 * width with a margin instead of react-toastify's edge-to-edge strip over the top bar.
 */
const placement = (
  <GlobalStyles
    styles={(theme) => ({
      '.Toastify__toast-container.Toastify__toast-container--top-center': {
        top: BELOW_TOP_BAR.xs,
        left: '50%',
        transform: 'translateX(-50%)',
        width: 'calc(100vw - 16px)',
        [theme.breakpoints.up('sm')]: { top: BELOW_TOP_BAR.sm, width: 'min(420px, calc(100vw - 32px))' },
      },
      '.Toastify__toast-container--top-center .Toastify__toast': { borderRadius: theme.shape.borderRadius },
    })}
  />
);

/**
 * The screens spec part 1 describes itself (tickets, connections, login; the sandbox and the legal
 * pages beside them): their toasts last 2 s. Every other screen is in part 2's route table, whose
 * toasts close after 3000 ms.
 */
const PART1_SCREENS = ['/login', '/term', '/privacy', '/tickets/:ticketId?', '/connections', '/sandbox'];

/** How long a toast shown on `pathname` stays; the screen's area decides, whichever component raised it. */
export function toastMsAt(pathname: string): number {
  return PART1_SCREENS.some((path) => matchPath(path, pathname)) ? TOAST_MS : TOAST_MS_EXTENDED;
}

export function Toasts() {
  const { mode } = useColorMode();
  const { pathname } = useLocation();
  return (
    <>
      {placement}
      <ToastContainer
        position="top-center"
        autoClose={toastMsAt(pathname)}
        theme={mode === 'dark' ? 'dark' : 'colored'}
      />
    </>
  );
}
