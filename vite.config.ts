import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import babel from "@rolldown/plugin-babel";
import { lingui } from "@lingui/vite-plugin";
import { fileURLToPath } from "node:url";

// The web app: sources in web/, output in dist/web (the simulator server serves it with an SPA fallback).
// plugin-react 6 has no babel option, so the Lingui macro rides on @rolldown/plugin-babel (see design/stack.md).
const root = fileURLToPath(new URL("./web", import.meta.url));
const outDir = fileURLToPath(new URL("./dist/web", import.meta.url));
const apiTarget = process.env.ISOPTER_API ?? "http://127.0.0.1:4170";

export default defineConfig({
  root,
  plugins: [react(), babel({ plugins: ["@lingui/babel-plugin-lingui-macro"] }), lingui()],
  build: { outDir, emptyOutDir: true, sourcemap: false, target: "es2022", manifest: true },
  // `npm run dev:web` proxies the API and the live socket to a running `npm start`.
  server: { host: "127.0.0.1", proxy: { "/api": { target: apiTarget, ws: true } } },
});
