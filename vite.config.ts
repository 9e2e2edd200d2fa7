import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import babel, { defineRolldownBabelPreset } from "@rolldown/plugin-babel";
import { lingui } from "@lingui/vite-plugin";
import { fileURLToPath } from "node:url";

// The web app: sources in web/, output in dist/web (the simulator server serves it with an SPA fallback).
// plugin-react 6 has no babel option, so the Lingui macro rides on @rolldown/plugin-babel (see design/stack.md).
// Babel runs only on the files that import a Lingui macro (a preset with a code filter; as a plain plugin it parsed and
// printed every source file), without source maps in a build (it has none): the same output, about 3 s less of the cold
// `npm start` (issue 18).
const root = fileURLToPath(new URL("./web", import.meta.url));
const outDir = fileURLToPath(new URL("./dist/web", import.meta.url));
const linguiMacro = defineRolldownBabelPreset({
  preset: { plugins: ["@lingui/babel-plugin-lingui-macro"] },
  rolldown: { filter: { code: /@lingui\/(?:core\/|react\/)?macro/ } },
});
const apiTarget = process.env.ISOPTER_API ?? "http://127.0.0.1:4170";

export default defineConfig(({ command }) => ({
  root,
  plugins: [react(), babel({ presets: [linguiMacro], sourceMap: command === "serve" }), lingui()],
  build: { outDir, emptyOutDir: true, sourcemap: false, target: "es2022", manifest: true },
  // `npm run dev:web` proxies the API and the live socket to a running `npm start`.
  server: { host: "127.0.0.1", proxy: { "/api": { target: apiTarget, ws: true } } },
}));
