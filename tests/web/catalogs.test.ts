import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { Languages } from "../../core/model/enums.ts";
import { firstPaintSources } from "../../scripts/first-paint-sources.ts";

// "Every user-facing string goes through Lingui; no language file may fall behind English." (architecture.md)
// Each catalog must hold every message of the English source catalog with a non-empty translation, and keep its
// placeholders ({name}, {0}) so no value silently disappears from a sentence.
// Two catalogs per language (lingui.config.ts): `messages`, every message, and `first-paint`, what /login can show
// before the full catalog loads (issue 18); both are held to that rule, and a message in both reads the same in both.

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

const catalogs = ["messages", "first-paint"] as const;
const read = (locale: string, catalog: (typeof catalogs)[number] = "messages") =>
  parsePo(readFileSync(new URL(`${locale}/${catalog}.po`, dir), "utf8"));
const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe("translation catalogs", () => {
  const source = read("en");

  it("the catalogs are exactly the ten interface languages", () => {
    expect(readdirSync(dir).sort()).toEqual([...Languages].sort());
    for (const locale of Languages) expect(readdirSync(new URL(locale, dir)).sort()).toEqual(["first-paint.po", "messages.po"]);
    expect(source.size).toBeGreaterThan(100);
  });

  it("the first-paint catalog holds what /login shows before the client, and little else", () => {
    // The sources it is extracted from: the entry and the login page with their static imports, not what loads later.
    const sources = firstPaintSources();
    for (const file of [
      "web/main.tsx",
      "web/pages/login/LoginPage.tsx",
      "web/ui/LanguageSelect.tsx",
      "web/ui/TextInput.tsx",
      "web/ui/Notifications.tsx",
      "web/shell/ErrorPage.tsx",
      "web/shell/NotFound.tsx",
      "web/i18n/rule-messages.ts",
    ])
      expect(sources).toContain(file);
    for (const file of ["web/shell/ClientOverlays.tsx", "web/shell/Protected.tsx", "web/pages/home/HomePage.tsx", "web/state/client.ts"])
      expect(sources).not.toContain(file);
    const firstPaint = read("en", "first-paint");
    for (const id of ["Log in", "Username", "Password", "Language", "Forgot your password?", "This field is required."])
      expect(firstPaint.has(id)).toBe(true);
    expect(firstPaint.has("Another session was opened")).toBe(false); // ClientOverlays: comes with the client
    expect(firstPaint.size).toBeLessThan(source.size / 10);
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
      for (const catalog of catalogs) {
        const fresh = parsePo(readFileSync(join(scratch, `en/${catalog}.po`), "utf8"));
        const inCatalog = read("en", catalog);
        const notInCatalog = [...fresh.keys()].filter((id) => !inCatalog.has(id));
        expect({ catalog, notInCatalog }).toEqual({ catalog, notInCatalog: [] });
      }
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }, 120_000);

  it.each(Languages.filter((l) => l !== "en"))("%s translates every English message, keeping its placeholders", (locale) => {
    for (const name of catalogs) {
      const english = read("en", name);
      const catalog = read(locale, name);
      const missing = [...english.keys()].filter((id) => !catalog.has(id));
      const empty = [...english.keys()].filter((id) => catalog.has(id) && catalog.get(id)!.trim() === "");
      const brokenPlaceholders = [...english.keys()].filter(
        (id) => catalog.get(id) && placeholders(catalog.get(id)!).join() !== placeholders(id).join(),
      );
      expect({ name, missing, empty, brokenPlaceholders }).toEqual({ name, missing: [], empty: [], brokenPlaceholders: [] });
    }
  });

  it.each(Languages)("%s: a first-paint message reads the same once the full catalog has loaded", (locale) => {
    const full = read(locale);
    const firstPaint = read(locale, "first-paint");
    const differing = [...firstPaint].filter(([id, text]) => full.get(id) !== text).map(([id]) => id);
    expect(differing).toEqual([]);
  });
});
