import { useLingui } from "@lingui/react";
import type { Language } from "../../core/model/enums.ts";
import { bcp47 } from "./locales.ts";

/** Dates formatted in the interface language. */
export function useDateFormat() {
  const { i18n } = useLingui();
  const tag = bcp47[i18n.locale as Language] ?? "en";
  const date = new Intl.DateTimeFormat(tag, { dateStyle: "medium" });
  const dateTime = new Intl.DateTimeFormat(tag, { dateStyle: "medium", timeStyle: "short" });
  return {
    date: (iso: string) => date.format(new Date(iso.length === 10 ? `${iso}T00:00:00` : iso)),
    dateTime: (iso: string) => dateTime.format(new Date(iso)),
  };
}
