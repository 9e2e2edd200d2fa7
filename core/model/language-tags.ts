import type { Language } from "./enums.ts";

/** BCP 47 tag of each interface language: the html lang attribute, a PDF's language, Intl formatting and plural rules. */
export const languageTag: Record<Language, string> = {
  en: "en",
  fr: "fr",
  de: "de",
  it: "it",
  es: "es",
  chi: "zh-Hans",
  mexsp: "es-MX",
  bp: "pt-BR",
  nl: "nl",
  tr: "tr",
};
