import { defineConfig } from "@lingui/cli";
import { formatter } from "@lingui/format-po";
import { fileURLToPath } from "node:url";
import { firstPaintSources } from "../../scripts/first-paint-sources.ts";

// Used by catalogs.test.ts: extracts the English messages of web/ into a scratch directory (EXTRACT_CHECK_DIR), both
// catalogs as lingui.config.ts has them, so the test can tell whether web/locales/en is up to date with the sources.
const repo = fileURLToPath(new URL("../../", import.meta.url));
const scratch = process.env.EXTRACT_CHECK_DIR ?? "/tmp/isopter-extract-check";
export default defineConfig({
  sourceLocale: "en",
  locales: ["en"],
  catalogs: [
    { path: `${scratch}/{locale}/messages`, include: [`${repo}web`], exclude: ["**/locales/**"] },
    { path: `${scratch}/{locale}/first-paint`, include: firstPaintSources(repo).map((f) => `${repo}${f}`) },
  ],
  format: formatter({ lineNumbers: false }),
});
