import { msg } from '@balcao/shared';
import type { TFunction } from 'i18next';

/** Translates a shared zod message (the spec's Portuguese text) through its `validation.*` key. */
export function translateValidation(t: TFunction, message: string | undefined): string | undefined {
  if (!message) return undefined;
  const key = (Object.keys(msg) as (keyof typeof msg)[]).find((k) => msg[k] === message);
  return key ? t(`validation.${key}`) : message;
}

/** The first translated message of each of `fields` among a failed zod parse's issues. */
export function fieldErrors<K extends string>(
  t: TFunction,
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
  fields: readonly K[],
): Partial<Record<K, string>> {
  const found: Partial<Record<K, string>> = {};
  for (const issue of issues) {
    const field = issue.path[0] as K;
    if (fields.includes(field) && !found[field]) found[field] = translateValidation(t, issue.message);
  }
  return found;
}
