import { AppError } from '../../platform/errors/app-error.js';

/**
 * The queue integration a queue or ticket names. No integration is stored until the integrations
 * module (issue 14) exists, so every id is not found: a dangling id would otherwise point, once
 * integrations exist, at whichever company's integration takes that id. Issue 14 replaces this with
 * a lookup of the caller's company's integrations (platform/tenancy/owned).
 */
export function assertIntegrationOfCompany(id: number | null | undefined): void {
  if (typeof id === 'number') throw new AppError('ERR_NOT_FOUND', {}, 'Integration not found');
}
