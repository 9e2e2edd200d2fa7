import { atom } from "jotai";
import { StorageKeys } from "../../core/ports.ts";
import type { Language } from "../../core/model/enums.ts";
import { defaultLocale, isLocale } from "../i18n/locales.ts";
import { activateLocale } from "../i18n/activate.ts";

// "The chosen interface language is stored locally in the browser." (accounts seed §1)
export function storedLanguage(store: Pick<globalThis.Storage, "getItem"> = localStorage): Language {
  const value = store.getItem(StorageKeys.local.language);
  return isLocale(value) ? value : defaultLocale;
}

export const languageAtom = atom<Language>(defaultLocale);

/** Loads the catalog, activates it, remembers the choice. */
export const setLanguageAtom = atom(null, async (_get, set, language: Language) => {
  await activateLocale(language);
  localStorage.setItem(StorageKeys.local.language, language);
  set(languageAtom, language);
});
