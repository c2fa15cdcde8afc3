import { z } from 'zod';
import { NAME_LENGTH, NUMBER_LENGTH, PASSWORD_LENGTH } from '../constants.js';
import { normalizeNumber } from '../phone.js';

/** The spec's Portuguese validation messages; the web translates them through i18n keys. */
export const msg = {
  tooShort: 'Muito curto!',
  tooLong: 'Muito longo!',
  required: 'Obrigatório',
  invalidEmail: 'E-mail inválido',
} as const;

export const requiredString = () => z.string({ error: msg.required }).trim().min(1, msg.required);

export const nameField = () => requiredString().min(NAME_LENGTH.min, msg.tooShort).max(NAME_LENGTH.max, msg.tooLong);

/** A phone number as typed: 8–50 characters (spec §5), stored normalised (digits, 55 added). */
export const numberField = () =>
  requiredString()
    .min(NUMBER_LENGTH.min, msg.tooShort)
    .max(NUMBER_LENGTH.max, msg.tooLong)
    .transform(normalizeNumber)
    .pipe(z.string().min(NUMBER_LENGTH.min, msg.tooShort));

export const passwordField = () =>
  z.string({ error: msg.required }).min(PASSWORD_LENGTH.min, msg.tooShort).max(PASSWORD_LENGTH.max, msg.tooLong);

export const emailField = () =>
  requiredString()
    .max(255, msg.tooLong)
    .pipe(z.email({ error: msg.invalidEmail }))
    .transform((e) => e.toLowerCase());

/** The range of a PostgreSQL `integer` column: a larger number would fail in the query itself. */
export const INT4 = { min: -2_147_483_648, max: 2_147_483_647 } as const;

/** Decimal digits as paths, queries and forms send numbers; anything else (hex, exponents, '') stays a string. */
const decimalDigits = (v: unknown) => (typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v);

/** An integer within [min, max] that fits an `integer` column: a number or its decimal digits. */
export const int4 = ({ min = INT4.min, max = INT4.max, error }: { min?: number; max?: number; error?: string } = {}) =>
  z.preprocess(decimalDigits, z.number({ error }).int(error).min(min, error).max(max));

/** The id of a row (a `serial` column). */
export const intId = (error?: string) => int4({ min: 1, error });

export const idParam = z.object({ id: intId() });

export const pageQuery = z.object({
  searchParam: z.string().trim().max(200).optional().default(''),
  pageNumber: int4({ min: 1, max: 100_000 }).optional().default(1),
});

/** ISO calendar date `yyyy-mm-dd`. */
export const isoDate = z.iso.date();

export const okReply = z.object({ message: z.string() });

type WithoutDefaults<S extends z.ZodRawShape> = {
  [K in keyof S]: S[K] extends z.ZodDefault<infer T> ? T : S[K];
};

/** Every field optional and none defaulted. Not `input.partial()`: zod 4 still applies `.default()` inside it. */
export function optionalFields<S extends z.ZodRawShape>(input: z.ZodObject<S>) {
  const shape = Object.fromEntries(
    Object.entries(input.shape).map(([key, field]) => [
      key,
      field instanceof z.ZodDefault ? field.removeDefault() : field,
    ]),
  ) as WithoutDefaults<S>;
  return z.object(shape).partial();
}

/**
 * The body of a PUT: every field optional, none defaulted, at least one given, so a PUT of one field
 * never resets the others.
 */
export function updateOf<S extends z.ZodRawShape>(input: z.ZodObject<S>) {
  // An empty body would reach the database as an UPDATE without a SET clause.
  return optionalFields(input).refine(
    (fields) => Object.values(fields).some((v) => v !== undefined),
    'Nothing to update',
  );
}
