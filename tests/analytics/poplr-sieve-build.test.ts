import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { compileWat, generatedPath, WASM_SOURCES, wasmModuleText } from "../../scripts/build-wasm.ts";

// The core carries its WebAssembly as generated TypeScript (base64 bytes); the text beside it is the source a reader
// reviews. A change to the text without `npm run build:wasm` would ship bytes nobody can read: this catches it.
describe("the core's WebAssembly is built from its source", () => {
  for (const path of WASM_SOURCES)
    it(`${generatedPath(path)} holds exactly what ${path} compiles to`, async () => {
      const bytes = await compileWat(path);
      expect(readFileSync(generatedPath(path), "utf8")).toBe(wasmModuleText(path, bytes));
    });
});
