import { defineConfig } from "@lingui/cli";
import { formatter } from "@lingui/format-po";

// Ten interface locales (core/model/enums Languages). English is the source; every other catalog must be complete
// (tests/web/catalogs.test.ts). `npx lingui extract` refreshes the catalogs from the sources in web/.
export default defineConfig({
  sourceLocale: "en",
  locales: ["en", "fr", "de", "it", "es", "chi", "mexsp", "bp", "nl", "tr"],
  fallbackLocales: { default: "en" },
  catalogs: [{ path: "<rootDir>/web/locales/{locale}/messages", include: ["<rootDir>/web"], exclude: ["**/locales/**"] }],
  format: formatter({ lineNumbers: false }),
});
