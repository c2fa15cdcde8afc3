import type { DashboardQuery, DashboardReply } from '@balcao/shared';
import { http } from '../../api/client';

export const dashboardApi = {
  get: (query: DashboardQuery) => http.get<DashboardReply>('/dashboard', { ...query }),
};
