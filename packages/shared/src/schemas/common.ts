import { z } from 'zod';
import { NAME_LENGTH, PASSWORD_LENGTH } from '../constants.js';

/** The spec's Portuguese validation messages; the web translates them through i18n keys. */
export const msg = {
  tooShort: 'Muito curto!',
  tooLong: 'Muito longo!',
  required: 'Obrigatório',
  invalidEmail: 'E-mail inválido',
} as const;

export const requiredString = () => z.string({ error: msg.required }).trim().min(1, msg.required);

export const nameField = () => requiredString().min(NAME_LENGTH.min, msg.tooShort).max(NAME_LENGTH.max, msg.tooLong);

export const passwordField = () =>
  z.string({ error: msg.required }).min(PASSWORD_LENGTH.min, msg.tooShort).max(PASSWORD_LENGTH.max, msg.tooLong);

export const emailField = () =>
  requiredString()
    .max(255, msg.tooLong)
    .pipe(z.email({ error: msg.invalidEmail }))
    .transform((e) => e.toLowerCase());

export const idParam = z.object({ id: z.coerce.number().int().positive() });

export const pageQuery = z.object({
  searchParam: z.string().trim().max(200).optional().default(''),
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
});

/** ISO calendar date `yyyy-mm-dd`. */
export const isoDate = z.iso.date();

export const okReply = z.object({ message: z.string() });

type WithoutDefaults<S extends z.ZodRawShape> = {
  [K in keyof S]: S[K] extends z.ZodDefault<infer T> ? T : S[K];
};

/**
 * The body of a PUT: every field optional and none defaulted. Not `input.partial()`: zod 4 still
 * applies `.default()` inside `.partial()`, so a PUT of one field would reset the others.
 */
export function updateOf<S extends z.ZodRawShape>(input: z.ZodObject<S>) {
  const shape = Object.fromEntries(
    Object.entries(input.shape).map(([key, field]) => [
      key,
      field instanceof z.ZodDefault ? field.removeDefault() : field,
    ]),
  ) as WithoutDefaults<S>;
  return z.object(shape).partial();
}
