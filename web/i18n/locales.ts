import type { Language } from "../../core/model/enums.ts";
import { languageTag } from "../../core/model/language-tags.ts";

// Interface languages and the two lists the accounts seed §1 names.
export const defaultLocale: Language = "en";

// Whether a value is one of core/model/enums.ts's Languages, read from `bcp47` below (a Record<Language, string>, so it
// names each exactly once): enums.ts builds effect Schemas, which the entry chunk does not load (issue 18 §5).
export const isLocale = (value: unknown): value is Language => typeof value === "string" && Object.hasOwn(bcp47, value);

/** "The language switcher lists English, German, French, Italian, Spanish, Portuguese, Dutch and Turkish" (accounts §1). */
export const switcherLocales: ReadonlyArray<Language> = ["en", "de", "fr", "it", "es", "bp", "nl", "tr"];

/**
 * What the switcher offers: the seed's eight, then Simplified Chinese, whose catalog is complete (issue 21: "a clinic
 * that reads Chinese should not need the browser's storage to choose it"). Mexican Spanish stays with Spanish.
 */
export const offeredLocales: ReadonlyArray<Language> = [...switcherLocales, "chi"];

/**
 * "the patient language list has eight entries (English, Dutch, German, French, Italian, Mexican Spanish,
 * Brazilian Portuguese, Simplified Chinese)" (accounts §1).
 */
export const patientLocales: ReadonlyArray<Language> = ["en", "nl", "de", "fr", "it", "mexsp", "bp", "chi"];

/** Each language named in itself, as language switchers conventionally do (so a user can find their own). */
export const endonyms: Record<Language, string> = {
  en: "English",
  fr: "Français",
  de: "Deutsch",
  it: "Italiano",
  es: "Español",
  chi: "简体中文",
  mexsp: "Español (México)",
  bp: "Português (Brasil)",
  nl: "Nederlands",
  tr: "Türkçe",
};

/** BCP 47 tag for the html lang attribute, Intl formatting and plural rules (core's, shared with the CLI's PDF). */
export const bcp47: Record<Language, string> = languageTag;
