import { formatDueDate } from '@balcao/shared';
import { toast } from 'react-toastify';
import { ApiError } from '../api/http';
import i18n from '../i18n';

/** Values a translated error may interpolate, taken from the error body (due dates shown as dd/mm/yyyy). */
function interpolation(err: ApiError): Record<string, unknown> {
  const { dueDate } = err.body;
  return typeof dueDate === 'string' ? { ...err.body, dueDate: formatDueDate(dueDate) } : err.body;
}

/**
 * The error text of spec §8: the translation of the backend error code if there is one, else
 * the raw code, else a plain string error, else the generic message.
 */
export function errorMessage(err: unknown): string {
  if (err instanceof ApiError && err.code) {
    const key = `backendErrors.${err.code}`;
    return i18n.exists(key) ? i18n.t(key, interpolation(err)) : err.code;
  }
  if (typeof err === 'string' && err) return err;
  return i18n.t('errors.generic');
}

export function toastError(err: unknown): void {
  const message = errorMessage(err);
  toast.error(message, { toastId: message });
}
