#!/usr/bin/env node
// `isopter` launcher (package.json "bin"): runs the CLI bundled (cli/bundle.mjs: rebuilt when a source changed), or
// the TypeScript sources through tsx's loader when ISOPTER_SOURCE_MAPS=1 (stack traces into the sources) or when the
// bundle cannot be built (tsx then names what is wrong in the sources).
import { pathToFileURL } from "node:url";
import { buildBundle, currentBundle } from "./bundle.mjs";

const debugging = Boolean(process.env.ISOPTER_SOURCE_MAPS);
let entry = null;
if (!debugging) {
  try {
    entry = currentBundle() ?? (await buildBundle());
  } catch {
    entry = null;
  }
}
if (entry) await import(pathToFileURL(entry).href);
else {
  const { register } = await import("tsx/esm/api");
  register();
  // tsx turns source maps on; Node then reads and keeps the map of every module it loads (effect ships one per file),
  // about 10 MB for nothing unless one is debugging.
  if (!debugging) process.setSourceMapsEnabled(false);
  await import("./main.ts");
}
