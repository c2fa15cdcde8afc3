import { AppError } from '../../platform/errors/app-error.js';

/**
 * The prompt a connection, queue or ticket names. No prompt is stored until the prompts module
 * (issue 14) exists, so every id is not found: a dangling id would otherwise point, once prompts
 * exist, at whichever company's prompt takes that id. Issue 14 replaces this with a lookup of the
 * caller's company's prompts (platform/tenancy/owned).
 */
export function assertPromptOfCompany(id: number | null | undefined): void {
  if (typeof id === 'number') throw new AppError('ERR_NOT_FOUND', {}, 'Prompt not found');
}
