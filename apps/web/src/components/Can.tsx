import { can } from '@balcao/shared';
import type { ReactNode } from 'react';
import { useAuth } from '../app/AuthContext';

interface CanProps {
  /** A permission of the shared rules table, e.g. `user-modal:editProfile`. */
  perform: string;
  children: ReactNode;
  /** Rendered instead when the permission is missing. */
  no?: ReactNode;
}

/** Renders its children only when the session user's profile has the permission. */
export function Can({ perform, children, no = null }: CanProps) {
  const { user } = useAuth();
  return can(user?.profile, perform) ? children : no;
}
