import type { FieldValues, UseFormSetError } from 'react-hook-form';
import { toast } from 'react-toastify';
import { ApiError } from '../../../api/http';
import { type CodeFields, serverFieldErrors } from '../../../components/serverFieldErrors';
import i18n from '../../../i18n';

/** Codes that say nothing more than the spec's own text. */
const UNINFORMATIVE = new Set(['ERR_INTERNAL', 'ERR_VALIDATION']);

/** The server's reason for a refusal, translated, when it says something specific. */
function reasonOf(err: unknown): string | null {
  if (!(err instanceof ApiError) || !err.code || UNINFORMATIVE.has(err.code)) return null;
  const key = `backendErrors.${err.code}`;
  return i18n.exists(key) ? i18n.t(key) : null;
}

/**
 * A failed save of the administration forms: the spec's text (part 2 §8, "Não foi possível realizar a
 * operação. Verifique se já existe…") as the toast, and the server's precise reason under the field
 * it concerns (a taken name or e-mail, an invalid video).
 */
export function saveFailed<T extends FieldValues>(
  message: string,
  setError: UseFormSetError<T>,
  codeFields: CodeFields<T>,
) {
  return (err: unknown) => {
    toast.error(message, { toastId: message });
    serverFieldErrors(err, codeFields).forEach(({ name, message: text }, index) => {
      setError(name, { type: 'server', message: text }, { shouldFocus: index === 0 });
    });
  };
}

/** A failed delete: the spec's "Não foi possível realizar a operação", with the reason when the server gives one. */
export function deleteFailed(err: unknown): void {
  const base = i18n.t('settings.admin.deleteFailed');
  const reason = reasonOf(err);
  const message = reason ? `${base}. ${reason}` : base;
  toast.error(message, { toastId: message });
}

export function operationDone(): void {
  toast.success(i18n.t('settings.admin.done'));
}

/** The spec's load failure toast (part 2 §8). */
export function loadFailed(): void {
  const message = i18n.t('settings.admin.loadFailed');
  toast.error(message, { toastId: message });
}
