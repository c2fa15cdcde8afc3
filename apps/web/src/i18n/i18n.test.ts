import { errorCatalogue } from '@balcao/shared';
import { describe, expect, it } from 'vitest';
import en from './en.json';
import es from './es.json';
import pt from './pt.json';

function keys(tree: object, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    value && typeof value === 'object' ? keys(value, `${prefix}${key}.`) : [`${prefix}${key}`],
  );
}

describe('translations', () => {
  it('en and es have exactly the keys of pt', () => {
    const ptKeys = keys(pt).sort();
    expect(keys(en).sort()).toEqual(ptKeys);
    expect(keys(es).sort()).toEqual(ptKeys);
  });

  it('translate every backend error code in every language', () => {
    for (const code of Object.keys(errorCatalogue)) {
      for (const language of [pt, en, es]) {
        expect(language.backendErrors, code).toHaveProperty(code);
      }
    }
  });
});
