import { STORAGE } from '@balcao/shared';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from './en.json';
import es from './es.json';
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

export function changeLanguage(language: Language): void {
  localStorage.setItem(STORAGE.language, language);
  void i18n.changeLanguage(language);
}

i18n.on('languageChanged', (language) => {
  document.documentElement.lang = language === 'pt' ? 'pt-BR' : language;
});

void i18n.use(initReactI18next).init({
  resources: { pt: { translation: pt }, en: { translation: en }, es: { translation: es } },
  lng: storedLanguage(),
  fallbackLng: FALLBACK,
  supportedLngs: [...LANGUAGES],
  interpolation: { escapeValue: false },
  initAsync: false,
});

export default i18n;
