import { TOAST_MS } from '@balcao/shared';
import GlobalStyles from '@mui/material/GlobalStyles';
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

export function Toasts() {
  const { mode } = useColorMode();
  return (
    <>
      {placement}
      <ToastContainer position="top-center" autoClose={TOAST_MS} theme={mode === 'dark' ? 'dark' : 'colored'} />
    </>
  );
}
