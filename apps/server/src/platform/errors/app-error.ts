import { type ErrorCode, errorCatalogue } from '@balcao/shared';

/** A rule broken by the caller: carries an ERR_* code, its HTTP status and optional extra fields. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly extra: Record<string, unknown> = {},
    message?: string,
  ) {
    super(message ?? code);
    this.status = errorCatalogue[code];
  }
}
