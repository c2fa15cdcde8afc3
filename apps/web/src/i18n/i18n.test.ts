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

describe('plurals', () => {
  it('says "0 contatos": Portuguese counts 0 as singular, so every plural has a zero form', async () => {
    const { default: i18n } = await import('./index');
    const t = i18n.getFixedT('pt');
    expect(t('contacts.count', { count: 0 })).toBe('0 contatos');
    expect(t('contacts.count', { count: 1 })).toBe('1 contato');
    expect(t('contacts.count', { count: 2 })).toBe('2 contatos');
    expect(t('users.count', { count: 0 })).toBe('0 usuários');
    for (const language of [pt, en, es]) {
      for (const key of keys(language).filter((k) => k.endsWith('_one'))) {
        expect(keys(language), key).toContain(key.replace(/_one$/, '_zero'));
      }
    }
  });
});
