import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from '../api/http';
import i18n from '../i18n';
import { translateValidation } from '../i18n/validation';
import { errorMessage, toastError } from './toastError';

/** Error codes that are really about one form field (e.g. ERR_WAPP_GREETING_REQUIRED → greetingMessage). */
export type CodeFields<T extends FieldValues> = Partial<Record<string, Path<T>>>;

/** The field errors a failed save carries: its `fields` list, and the field its code is about. */
export function serverFieldErrors<T extends FieldValues>(
  err: unknown,
  codeFields: CodeFields<T> = {},
): { name: Path<T>; message: string }[] {
  if (!(err instanceof ApiError)) return [];
  const found: { name: Path<T>; message: string }[] = [];
  const fields = Array.isArray(err.body.fields) ? (err.body.fields as { path: string; message: string }[]) : [];
  for (const field of fields) {
    found.push({
      name: field.path as Path<T>,
      message: translateValidation(i18n.t, field.message) ?? errorMessage(err),
    });
  }
  const byCode = err.code ? codeFields[err.code] : undefined;
  if (byCode) found.push({ name: byCode, message: errorMessage(err) });
  return found;
}

/** An `onError` for a form's save: the toast, plus the message under each field concerned. */
export function formErrorHandler<T extends FieldValues>(setError: UseFormSetError<T>, codeFields?: CodeFields<T>) {
  return (err: unknown) => {
    toastError(err);
    serverFieldErrors(err, codeFields).forEach(({ name, message }, index) => {
      setError(name, { type: 'server', message }, { shouldFocus: index === 0 });
    });
  };
}
