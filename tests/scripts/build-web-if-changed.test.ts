import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { STAMP, webBuildDecision } from "../../scripts/build-web-if-changed.ts";

// `npm start` builds the web app only when its sources changed since the last build (issue 18 §6: "a warm start in a
// few seconds"). The decision is checked on a small stand-in project in a temporary folder: no real build runs.

let root: string;
let out: string;
const write = (path: string, text: string) => {
  mkdirSync(join(root, path, ".."), { recursive: true });
  writeFileSync(join(root, path), text);
};
/** What the script does after a build: the output, and the stamp with the fingerprint it was built from. */
const built = (fingerprint: string) => {
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, "index.html"), "<!doctype html>");
  writeFileSync(join(out, STAMP), fingerprint + "\n");
};

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "isopter-web-build-"));
  out = join(root, "dist/web");
  write("web/main.tsx", "export {};\n");
  write("core/rules/login.ts", "export const a = 1;\n");
  write("adapters/http/index.ts", "export const b = 2;\n");
  write("package-lock.json", "{}\n");
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("build the web app only when its sources changed", () => {
  it("builds when there is no build stamp (first start, or the last build failed)", () => {
    expect(webBuildDecision(root, out, {})).toMatchObject({ build: true, why: "no build stamp" });
    const { fingerprint } = webBuildDecision(root, out, {});
    built(fingerprint);
    rmSync(join(out, STAMP));
    expect(webBuildDecision(root, out, {}).build).toBe(true);
  });

  it("skips the build when the sources are unchanged since the last build", () => {
    built(webBuildDecision(root, out, {}).fingerprint);
    expect(webBuildDecision(root, out, {})).toMatchObject({ build: false });
  });

  it("builds when a source changed, was added or was removed (web, core, adapters, the locked dependencies)", () => {
    const rebuildsAfter = (change: () => void) => {
      built(webBuildDecision(root, out, {}).fingerprint);
      change();
      return webBuildDecision(root, out, {});
    };
    expect(rebuildsAfter(() => write("web/main.tsx", "export const changed = true;\n"))).toMatchObject({
      build: true,
      why: "sources changed",
    });
    expect(rebuildsAfter(() => write("core/rules/new-rule.ts", "export {};\n")).build).toBe(true);
    expect(rebuildsAfter(() => rmSync(join(root, "adapters/http/index.ts"))).build).toBe(true);
    expect(rebuildsAfter(() => write("package-lock.json", '{"lockfileVersion":3}\n')).build).toBe(true);
  });

  it("does not rebuild for files that are not the web app's sources", () => {
    built(webBuildDecision(root, out, {}).fingerprint);
    write("server/whatever.ts", "export {};\n");
    write("README.md", "# changed\n");
    expect(webBuildDecision(root, out, {}).build).toBe(false);
  });

  it("FORCE_WEB_BUILD=1 builds even when nothing changed", () => {
    built(webBuildDecision(root, out, {}).fingerprint);
    expect(webBuildDecision(root, out, { FORCE_WEB_BUILD: "1" })).toMatchObject({ build: true, why: "FORCE_WEB_BUILD=1" });
  });
});
