import { useAtomValue, useSetAtom } from "jotai";
import { useLingui } from "@lingui/react/macro";
import type { Language } from "../../core/model/enums.ts";
import { endonyms, offeredLocales } from "../i18n/locales.ts";
import { languageAtom, setLanguageAtom } from "../state/language.ts";
import { Select } from "./Select.tsx";

/** The interface language switcher (the seed's eight entries and Chinese); the choice is stored in local storage. */
export function LanguageSelect() {
  const { t } = useLingui();
  const language = useAtomValue(languageAtom);
  const setLanguage = useSetAtom(setLanguageAtom);
  // A language outside the switcher (set elsewhere) still shows as the current value.
  const list = offeredLocales.includes(language) ? offeredLocales : [...offeredLocales, language];
  return (
    <Select<Language>
      label={t`Language`}
      value={language}
      onChange={(l) => void setLanguage(l)}
      options={list.map((l) => ({ value: l, label: endonyms[l] }))}
    />
  );
}
