import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { FullPageLoader } from '../components/FullPageLoader';
import { useAuth } from './AuthContext';
import { GATE_REDIRECT_DELAY_MS, type Gate, passesGate } from './gates';

/** Private routes: an unauthenticated visitor goes to /login. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { status } = useAuth();
  if (status === 'loading') return <FullPageLoader />;
  if (status === 'anonymous') return <Navigate to="/login" replace />;
  return children;
}

/** Public routes such as /login: an authenticated user goes to /. */
export function PublicOnly({ children }: { children: ReactNode }) {
  const { status } = useAuth();
  if (status === 'loading') return <FullPageLoader />;
  if (status === 'authenticated') return <Navigate to="/" replace />;
  return children;
}

function DeniedRedirect() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  useEffect(() => {
    toast.error(t('gate.denied'), { toastId: 'gate-denied' });
    const timer = setTimeout(() => navigate('/', { replace: true }), GATE_REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [navigate, t]);
  return null;
}

/**
 * Role and plan gates of spec §2. A plain user sent to the admin-only dashboard lands on
 * /tickets; any other denial shows the permission toast and redirects to / after 1 s.
 */
export function RequireGate({ gate, children }: { gate: Gate; children: ReactNode }) {
  const { user } = useAuth();
  if (user && passesGate(gate, user)) return children;
  if (gate.kind === 'admin') return <Navigate to="/tickets" replace />;
  return <DeniedRedirect />;
}
