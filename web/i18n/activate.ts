import { i18n } from "@lingui/core";
import type { Language } from "../../core/model/enums.ts";
import { bcp47, defaultLocale, isLocale } from "./locales.ts";

// Catalogs are compiled by @lingui/vite-plugin and split per locale: only the active language is downloaded. Two per
// locale (lingui.config.ts): `first-paint`, the few messages /login can show before the client loads (the entry's and
// the login page's, about 40), and `messages`, all of them. /login downloads only the first; the full catalog loads
// with the client (web/state/lazy-client.ts `loadClient` binds it once both are there), so every screen that renders
// with the client has it, and from then on each language switch loads both. `i18n.load` merges a locale's messages.
const firstPaintCatalogs = import.meta.glob<Catalog>("../locales/*/first-paint.po");
const fullCatalogs = import.meta.glob<Catalog>("../locales/*/messages.po");
type Catalog = { messages: Record<string, unknown> };

const loads = new Map<string, Promise<void>>();
/** Downloads one catalog of `locale` into i18n once (again after a failed download). */
function load(catalogs: Record<string, () => Promise<Catalog>>, kind: string, locale: Language): Promise<void> {
  const key = `${kind}/${locale}`;
  let loading = loads.get(key);
  if (!loading) {
    const importer = catalogs[`../locales/${locale}/${kind}.po`];
    loading = (importer ? importer() : Promise.resolve({ messages: {} })).then(({ messages }) => i18n.load(locale, messages as never));
    loads.set(key, loading);
    loading.catch(() => loads.delete(key));
  }
  return loading;
}

/** The language being activated, or the active one. */
let target: Language = defaultLocale;
/** Whether the full catalogs are needed (from the first `loadFullCatalog` on). */
let full = false;

export async function activateLocale(locale: Language): Promise<void> {
  target = locale;
  await load(firstPaintCatalogs, "first-paint", locale);
  // Checked after the first await: a `loadFullCatalog` started meanwhile counts.
  if (full) await load(fullCatalogs, "messages", locale);
  i18n.activate(locale);
  if (typeof document !== "undefined") document.documentElement.lang = bcp47[locale];
}

/**
 * Loads every message of the language shown and of the one being switched to, if any, and of each language activated
 * from now on. Resolves once both have their full catalog (so a screen rendered now shows no message id, whichever of
 * them it renders in).
 */
export async function loadFullCatalog(): Promise<void> {
  full = true;
  for (;;) {
    const locales = [...new Set([i18n.locale, target])].filter(isLocale);
    await Promise.all(locales.map((locale) => load(fullCatalogs, "messages", locale)));
    const shown = i18n.locale; // none before the first activation
    if ((!isLocale(shown) || locales.includes(shown)) && locales.includes(target)) return;
  }
}
