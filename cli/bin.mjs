#!/usr/bin/env node
// `isopter` launcher (package.json "bin"): loads tsx's ESM loader, then runs the TypeScript entry as is.
import { register } from "tsx/esm/api";

register();
// tsx turns source maps on; Node then reads and keeps the map of every module it loads (effect ships one per file),
// about 10 MB for nothing: the CLI prints messages, not stack traces. ISOPTER_SOURCE_MAPS=1 keeps them for debugging.
if (!process.env.ISOPTER_SOURCE_MAPS) process.setSourceMapsEnabled(false);
await import("./main.ts");
