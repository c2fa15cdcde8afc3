import type { PlanFlag, Profile } from '@balcao/shared';
import type { Db } from '../../db/client.js';
import type { Jobs } from '../jobs/jobs.js';
import type { Realtime } from '../realtime/realtime.js';

/** Who is calling: taken from the verified token and the session row, never from the request body. */
export interface Caller {
  companyId: number;
  userId: number;
  profile: Profile;
  isSuper: boolean;
  sessionId: string;
  /**
   * The user's queues and `allTicket` setting, read with the session check so that ticket reads
   * need not query them again; absent for callers not loaded from a session row.
   */
  queueIds?: number[];
  allTicket?: boolean;
  /** The company's plan, read with the session check (null: no plan, every feature on). */
  plan?: PlanFlags | null;
}

export type PlanFlags = Record<PlanFlag, boolean>;

/** What every service receives: the caller plus the handles it may use. */
export interface ServiceContext extends Caller {
  db: Db;
  realtime: Realtime;
  jobs: Jobs;
}

export const isAdmin = (c: Pick<Caller, 'profile' | 'isSuper'>) => c.profile === 'admin' || c.isSuper;
