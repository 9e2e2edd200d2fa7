import { useLingui } from "@lingui/react";
import type { Language } from "../../core/model/enums.ts";
import { bcp47 } from "./locales.ts";

/** Dates formatted in the interface language. */
export function useDateFormat(): DateFormat {
  const { i18n } = useLingui();
  return formatFor(bcp47[i18n.locale as Language] ?? "en");
}

export interface DateFormat {
  date(iso: string): string;
  dateTime(iso: string): string;
}

// One pair of formatters per language: building Intl.DateTimeFormat is costly and lists call this once per row.
const formats = new Map<string, DateFormat>();
const formatFor = (tag: string): DateFormat => {
  let f = formats.get(tag);
  if (!f) {
    // Built at their first use: a view that formats no date (queued cards without a result) pays nothing for them.
    let date: Intl.DateTimeFormat | undefined;
    let dateTime: Intl.DateTimeFormat | undefined;
    f = {
      date: (iso) =>
        (date ??= new Intl.DateTimeFormat(tag, { dateStyle: "medium" })).format(new Date(iso.length === 10 ? `${iso}T00:00:00` : iso)),
      dateTime: (iso) => (dateTime ??= new Intl.DateTimeFormat(tag, { dateStyle: "medium", timeStyle: "short" })).format(new Date(iso)),
    };
    formats.set(tag, f);
  }
  return f;
};
