#!/usr/bin/env node
// `isopter` launcher (package.json "bin"): loads tsx's ESM loader, then runs the TypeScript entry as is.
import { register } from "tsx/esm/api";

register();
await import("./main.ts");
