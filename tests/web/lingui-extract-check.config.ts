import { defineConfig } from "@lingui/cli";
import { formatter } from "@lingui/format-po";
import { fileURLToPath } from "node:url";

// Used by catalogs.test.ts: extracts the English messages of web/ into a scratch directory (EXTRACT_CHECK_DIR),
// so the test can tell whether web/locales/en is up to date with the sources.
const repo = fileURLToPath(new URL("../../", import.meta.url));
export default defineConfig({
  sourceLocale: "en",
  locales: ["en"],
  catalogs: [
    {
      path: `${process.env.EXTRACT_CHECK_DIR ?? "/tmp/isopter-extract-check"}/{locale}/messages`,
      include: [`${repo}web`],
      exclude: ["**/locales/**"],
    },
  ],
  format: formatter({ lineNumbers: false }),
});
