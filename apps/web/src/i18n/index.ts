import { STORAGE } from '@balcao/shared';
import i18n, { type BackendModule, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';
import pt from './pt.json';

export const LANGUAGES = ['pt', 'en', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];

const FALLBACK: Language = 'pt';

function isLanguage(value: string | null): value is Language {
  return LANGUAGES.some((l) => l === value);
}

function storedLanguage(): Language {
  const stored = localStorage.getItem(STORAGE.language);
  return isLanguage(stored) ? stored : FALLBACK;
}

/** English and Spanish load when chosen; Portuguese, the default and the fallback, ships with the app. */
const otherBundles: Record<Exclude<Language, 'pt'>, () => Promise<{ default: ResourceKey }>> = {
  en: () => import('./en.json'),
  es: () => import('./es.json'),
};

const lazyBundles: BackendModule = {
  type: 'backend',
  init: () => {},
  read: (language, _namespace, callback) => {
    const load = otherBundles[language as keyof typeof otherBundles];
    if (!load) return callback(new Error(`No translations for ${language}`), null);
    load().then(
      (bundle) => callback(null, bundle.default),
      (error: Error) => callback(error, null),
    );
  },
};

export function changeLanguage(language: Language): void {
  localStorage.setItem(STORAGE.language, language);
  void i18n.changeLanguage(language);
}

i18n.on('languageChanged', (language) => {
  document.documentElement.lang = language === 'pt' ? 'pt-BR' : language;
});

void i18n
  .use(lazyBundles)
  .use(initReactI18next)
  .init({
    resources: { pt: { translation: pt } },
    partialBundledLanguages: true,
    lng: storedLanguage(),
    fallbackLng: FALLBACK,
    supportedLngs: [...LANGUAGES],
    interpolation: { escapeValue: false },
    initAsync: false,
  });

export default i18n;
