import { i18n } from "@lingui/core";
import type { Language } from "../../core/model/enums.ts";
import { bcp47 } from "./locales.ts";

// Catalogs are compiled by @lingui/vite-plugin and split per locale: only the active language is downloaded.
const catalogs = import.meta.glob<{ messages: Record<string, unknown> }>("../locales/*/messages.po");

export async function activateLocale(locale: Language): Promise<void> {
  const load = catalogs[`../locales/${locale}/messages.po`];
  const { messages } = load ? await load() : { messages: {} };
  i18n.load(locale, messages as never);
  i18n.activate(locale);
  if (typeof document !== "undefined") document.documentElement.lang = bcp47[locale];
}
