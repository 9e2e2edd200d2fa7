import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { Languages } from "../../core/model/enums.ts";

// "Every user-facing string goes through Lingui; no language file may fall behind English." (architecture.md)
// Each catalog must hold every message of the English source catalog with a non-empty translation, and keep its
// placeholders ({name}, {0}) so no value silently disappears from a sentence.

const dir = new URL("../../web/locales/", import.meta.url);

/** msgid -> msgstr of a .po file (plain entries; multi-line strings joined). */
function parsePo(text: string): Map<string, string> {
  const entries = new Map<string, string>();
  const unquote = (s: string) => JSON.parse(s) as string;
  let field: "msgid" | "msgstr" | null = null;
  let id = "";
  let str = "";
  const flush = () => {
    if (field === "msgstr" && id !== "") entries.set(id, str);
  };
  for (const line of text.split(/\r?\n/)) {
    if (line.startsWith("msgid ")) {
      flush();
      field = "msgid";
      id = unquote(line.slice(6));
      str = "";
    } else if (line.startsWith("msgstr ")) {
      field = "msgstr";
      str = unquote(line.slice(7));
    } else if (line.startsWith('"') && field === "msgid") id += unquote(line);
    else if (line.startsWith('"') && field === "msgstr") str += unquote(line);
    else if (line.trim() === "" || line.startsWith("#")) {
      flush();
      field = null;
      id = "";
      str = "";
    }
  }
  flush();
  return entries;
}

const read = (locale: string) => parsePo(readFileSync(new URL(`${locale}/messages.po`, dir), "utf8"));
const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe("translation catalogs", () => {
  const source = read("en");

  it("the catalogs are exactly the ten interface languages", () => {
    expect(readdirSync(dir).sort()).toEqual([...Languages].sort());
    expect(source.size).toBeGreaterThan(100);
  });

  it("the parser sees a missing or empty translation", () => {
    const parsed = parsePo('msgid "A"\nmsgstr ""\n\nmsgid "B {name}"\nmsgstr ""\n"B {name}"\n');
    expect(parsed.get("A")).toBe("");
    expect(parsed.get("B {name}")).toBe("B {name}");
  });

  it("the English catalog is up to date with the sources (run `npx lingui extract` after changing texts)", () => {
    const scratch = mkdtempSync(join(tmpdir(), "isopter-extract-"));
    try {
      const repo = fileURLToPath(new URL("../../", import.meta.url));
      execFileSync(
        join(repo, "node_modules/.bin/lingui"),
        ["extract", "--config", join(repo, "tests/web/lingui-extract-check.config.ts")],
        {
          cwd: repo,
          env: { ...process.env, EXTRACT_CHECK_DIR: scratch },
          stdio: "pipe",
        },
      );
      const fresh = parsePo(readFileSync(join(scratch, "en/messages.po"), "utf8"));
      const notInCatalog = [...fresh.keys()].filter((id) => !source.has(id));
      expect(notInCatalog).toEqual([]);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }, 120_000);

  it.each(Languages.filter((l) => l !== "en"))("%s translates every English message, keeping its placeholders", (locale) => {
    const catalog = read(locale);
    const missing = [...source.keys()].filter((id) => !catalog.has(id));
    const empty = [...source.keys()].filter((id) => catalog.has(id) && catalog.get(id)!.trim() === "");
    const brokenPlaceholders = [...source.keys()].filter(
      (id) => catalog.get(id) && placeholders(catalog.get(id)!).join() !== placeholders(id).join(),
    );
    expect({ missing, empty, brokenPlaceholders }).toEqual({ missing: [], empty: [], brokenPlaceholders: [] });
  });
});
