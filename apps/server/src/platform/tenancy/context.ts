import type { Profile } from '@balcao/shared';
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
}

/** What every service receives: the caller plus the handles it may use. */
export interface ServiceContext extends Caller {
  db: Db;
  realtime: Realtime;
  jobs: Jobs;
}

export const isAdmin = (c: Pick<Caller, 'profile' | 'isSuper'>) => c.profile === 'admin' || c.isSuper;
