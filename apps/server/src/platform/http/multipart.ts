import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error.js';
import { containsNul, fileNameOf, mimetypeOf } from '../untrusted-text.js';
import type { App } from './types.js';

export interface FormFile {
  data: Buffer;
  /** The client's name, kept as metadata only and cut to fit its column. */
  fileName: string;
  mimetype: string;
}

export interface MultipartForm {
  files: FormFile[];
  /** The last value of each text field. */
  fields: Record<string, string>;
  /** Every value of each text field in the order sent: forms that repeat a field per file (`id`). */
  repeated: Record<string, string[]>;
}

/**
 * Registers `routes`, the ones that read a multipart form, in a scope of `app` that parses such a
 * body: any other route answers it 415 unread, and skips the parser's hooks on every request (two
 * async hooks and a listener, there to delete temporary files these forms never write).
 */
export function uploadRoutes(app: App, routes: (uploads: App) => void): void {
  app.register(async (uploads) => {
    await uploads.register(multipart, { limits: { fileSize: 64 * 1024 * 1024, files: 10 } });
    routes(uploads);
  });
}

const invalid = (message: string) => new AppError('ERR_VALIDATION', {}, message);

/** Errors that already name the caller's fault (a size limit answers 413) keep their status. */
const isClientError = (err: unknown) => {
  const status = (err as { statusCode?: number; status?: number }).statusCode ?? (err as AppError).status;
  return typeof status === 'number' && status >= 400 && status < 500;
};

/**
 * Every upload's form: the files of `fileField` and the text fields. A body that is not multipart,
 * has no boundary, is cut short, carries a file under another field or NUL in a text is the
 * caller's error (400), never a 500. `maxFileBytes` lowers the app's file limit for this route
 * (413 as soon as a file passes it, before it is all read).
 */
export async function readMultipartForm(
  request: FastifyRequest,
  fileField: string,
  opts: { maxFileBytes?: number } = {},
): Promise<MultipartForm> {
  if (!request.isMultipart()) throw invalid('Expected a multipart/form-data body');
  const form: MultipartForm = { files: [], fields: {}, repeated: {} };
  try {
    const parts = request.parts(opts.maxFileBytes ? { limits: { fileSize: opts.maxFileBytes } } : undefined);
    for await (const part of parts) {
      if (part.type !== 'file') {
        const value = String(part.value ?? '');
        form.fields[part.fieldname] = value;
        form.repeated[part.fieldname] = [...(form.repeated[part.fieldname] ?? []), value];
        continue;
      }
      if (part.fieldname !== fileField) throw invalid(`Unexpected file field ${part.fieldname}`);
      const data = await part.toBuffer();
      form.files.push({ data, fileName: fileNameOf(part.filename), mimetype: mimetypeOf(part.mimetype) });
    }
  } catch (err) {
    // The parser's own errors (busboy's "Unexpected end of form", "Boundary not found") carry no status.
    throw isClientError(err) ? err : invalid(`Malformed multipart body: ${(err as Error).message}`);
  }
  if (containsNul(form.repeated) || form.files.some((f) => containsNul(f.fileName) || containsNul(f.mimetype)))
    throw invalid('Text must not contain NUL characters');
  return form;
}

/** A form field that carries JSON (`quotedMsg`): undefined when absent or empty, 400 when not JSON. */
export function jsonField(form: MultipartForm, name: string): unknown {
  const raw = form.fields[name];
  if (!raw) return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    throw invalid(`${name} must be JSON`);
  }
}
