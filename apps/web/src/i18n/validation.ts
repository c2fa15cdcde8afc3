import { msg } from '@balcao/shared';
import type { TFunction } from 'i18next';

/** Translates a shared zod message (the spec's Portuguese text) through its `validation.*` key. */
export function translateValidation(t: TFunction, message: string | undefined): string | undefined {
  if (!message) return undefined;
  const key = (Object.keys(msg) as (keyof typeof msg)[]).find((k) => msg[k] === message);
  return key ? t(`validation.${key}`) : message;
}
