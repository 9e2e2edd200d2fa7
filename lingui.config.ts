import { defineConfig } from "@lingui/cli";
import { formatter } from "@lingui/format-po";
import { firstPaintSources } from "./scripts/first-paint-sources.ts";

// Ten interface locales (core/model/enums Languages). English is the source; every other catalog must be complete
// (tests/web/catalogs.test.ts). `npx lingui extract` refreshes the catalogs from the sources in web/.
// Two catalogs per locale: `messages` holds every message of web/; `first-paint` holds the few that /login can show
// before the client (and with it `messages`) loads: those of the entry and the login page with their static imports
// (scripts/first-paint-sources.ts), so /login downloads ~50 messages instead of all of them (issue 18). A message in
// both carries the same translation in both (the catalogs test checks it).
export default defineConfig({
  sourceLocale: "en",
  locales: ["en", "fr", "de", "it", "es", "chi", "mexsp", "bp", "nl", "tr"],
  fallbackLocales: { default: "en" },
  catalogs: [
    { path: "<rootDir>/web/locales/{locale}/messages", include: ["<rootDir>/web"], exclude: ["**/locales/**"] },
    { path: "<rootDir>/web/locales/{locale}/first-paint", include: firstPaintSources().map((f) => `<rootDir>/${f}`) },
  ],
  format: formatter({ lineNumbers: false }),
});
