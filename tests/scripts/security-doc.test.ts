import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

// Issue 33 item 4: "`docs/security.md` exists and every mitigation in it points at a test." This reads the document's
// threat rows (`| T<n> | ...`) and checklist rows (`| V<chapter>.<section>.<n> | status | ...`) and checks that every
// test they point at is there. A pointer is a backticked path, then ›, then a quoted part of a test's title:
//   `tests/server/attacker/sessions.ts` › "after logout the token"
// The file must exist and one of its it()/test() titles must contain the quoted words. A row without such a pointer
// must say why instead: a threat row "gap: ...", "in progress: ..." or "planned, issue 31: ..."; a checklist row
// through its status (Untested, Gap, N/A, Site, In progress, Planned) and the words beside it.

/** OWASP ASVS 4.0.3 (docs_en CSV of github.com/OWASP/ASVS, folder 4.0): the level-2 requirements of each section of
 * V1-V14, as requirement numbers (ranges inclusive). Facts from the standard, so the checklist can be held to it. */
const LEVEL_2 =
  "V1.1:1-7 V1.2:1-4 V1.4:1,4-5 V1.5:1-4 V1.6:1-4 V1.7:1-2 V1.8:1-2 V1.9:1-2 V1.10:1 V1.11:1-2 V1.12:2 V1.14:1-6 " +
  "V2.1:1-12 V2.2:1-3 V2.3:1-3 V2.4:1-5 V2.5:1-7 V2.6:1-3 V2.7:1-6 V2.8:1-7 V2.9:1-3 V2.10:1-4 V3.1:1 V3.2:1-4 V3.3:1-4 " +
  "V3.4:1-5 V3.5:1-3 V3.7:1 V4.1:1-3,5 V4.2:1-2 V4.3:1-3 V5.1:1-5 V5.2:1-8 V5.3:1-10 V5.4:1-3 V5.5:1-4 V6.1:1-3 V6.2:1-6 " +
  "V6.3:1-2 V6.4:1-2 V7.1:1-4 V7.2:1-2 V7.3:1,3-4 V7.4:1-3 V8.1:1-4 V8.2:1-3 V8.3:1-8 V9.1:1-3 V9.2:1-4 V10.2:1-2 " +
  "V10.3:1-3 V11.1:1-8 V12.1:1-3 V12.2:1 V12.3:1-6 V12.4:1-2 V12.5:1-2 V12.6:1 V13.1:1,3-5 V13.2:1-3,5-6 V13.3:1-2 " +
  "V13.4:1-2 V14.1:1-4 V14.2:1-6 V14.3:2-3 V14.4:1-7 V14.5:1-4";

const level2Ids = (): string[] =>
  LEVEL_2.split(" ").flatMap((entry) => {
    const [section, numbers] = entry.split(":") as [string, string];
    return numbers.split(",").flatMap((part) => {
      const [from, to = from] = part.split("-").map(Number) as [number, number?];
      return Array.from({ length: to! - from + 1 }, (_, i) => `${section}.${from + i}`);
    });
  });

/** Every title of an it() or test() call in a source text (a template's `${...}` stays as written). */
const testTitles = (source: string): string[] =>
  [...source.matchAll(/\b(?:it|test)(?:\.\w+(?:\([^)]*\))?)?\(\s*(["'`])((?:\\.|(?!\1)[^\\])*)\1/g)].map((m) => m[2]!);

const POINTER = /`([^`]+)`\s*›\s*"([^"]+)"/g;
const STATUSES = ["Met", "Partly", "Untested", "Gap", "N/A", "Site", "In progress", "Planned"] as const;
/** Statuses that claim a control works: they must point at a test. */
const CLAIMS = new Set(["Met", "Partly"]);
const THREAT_REASONS = /\b(gap|in progress|planned, issue 31):/i;

interface Row {
  readonly id: string;
  readonly cells: string[];
  readonly line: number;
}

const rows = (doc: string, id: RegExp): Row[] =>
  doc.split("\n").flatMap((text, i) => {
    if (!text.startsWith("|")) return [];
    const cells = text.split(" | ").map((c) => c.replace(/^\|\s*|\s*\|$/g, "").trim());
    return id.test(cells[0]!) ? [{ id: cells[0]!, cells, line: i + 1 }] : [];
  });

/** What is wrong with a document's pointers and rows; `read` gives a file's text, or undefined when it is not there. */
const problems = (doc: string, read: (path: string) => string | undefined): string[] => {
  const found: string[] = [];
  const titles = new Map<string, string[] | undefined>();
  const pointers = (text: string, line: number) =>
    [...text.matchAll(POINTER)].map(([, path, title]) => {
      if (!titles.has(path!)) {
        const source = read(path!);
        titles.set(path!, source === undefined ? undefined : testTitles(source));
      }
      const known = titles.get(path!);
      if (known === undefined) found.push(`line ${line}: ${path} does not exist`);
      else if (!known.some((t) => t.includes(title!))) found.push(`line ${line}: no test in ${path} is titled "…${title}…"`);
      return path!;
    });
  for (const row of rows(doc, /^T\d+$/)) {
    const text = row.cells.slice(1).join(" | ");
    if (pointers(text, row.line).length === 0 && !THREAT_REASONS.test(row.cells.at(-1)!))
      found.push(`${row.id}: no test shows its mitigation and no gap, in progress or planned reason is given`);
  }
  const checklist = rows(doc, /^V\d+\.\d+\.\d+$/);
  for (const row of checklist) {
    const [, status = "", ...rest] = row.cells;
    const text = rest.join(" | ");
    if (!(STATUSES as ReadonlyArray<string>).includes(status))
      found.push(`${row.id}: status "${status}" is none of ${STATUSES.join(", ")}`);
    const tested = pointers(text, row.line).length > 0;
    if (CLAIMS.has(status) && !tested) found.push(`${row.id}: ${status} without a test`);
    if (!CLAIMS.has(status) && text.replace(/[\s|—-]/g, "").length < 20) found.push(`${row.id}: ${status} without a reason`);
  }
  const ids = checklist.map((r) => r.id);
  const wanted = level2Ids();
  const missing = wanted.filter((id) => !ids.includes(id));
  const extra = ids.filter((id) => !wanted.includes(id));
  if (missing.length > 0) found.push(`checklist lacks ${missing.join(", ")}`);
  if (extra.length > 0) found.push(`checklist has requirements that are not level 2 of 4.0.3: ${extra.join(", ")}`);
  if (new Set(ids).size !== ids.length) found.push("checklist names a requirement twice");
  if (missing.length === 0 && extra.length === 0 && ids.join() !== wanted.join()) found.push("checklist is not in the standard's order");
  return found;
};

const readRepoFile = (path: string) => (existsSync(path) ? readFileSync(path, "utf8") : undefined);

describe("docs/security.md", () => {
  const doc = readRepoFile("docs/security.md");

  it("exists, names ASVS 4.0.3, and every test it points at exists, every row has a test or says why not", () => {
    expect(doc).toBeDefined();
    expect(doc).toContain("ASVS 4.0.3");
    expect(problems(doc!, readRepoFile)).toEqual([]);
  });

  it("has threat rows for each trust boundary the issue names, and a checklist row per level-2 requirement (259)", () => {
    expect(level2Ids()).toHaveLength(259);
    const boundaries = rows(doc!, /^T\d+$/).map((r) => r.cells[1]!.toLowerCase());
    for (const b of ["browser", "headset", "home headset", "pacs", "worklist", "identity provider", "database", "reverse proxy"])
      expect(boundaries.some((cell) => cell.includes(b))).toBe(true);
  });
});

describe("the document check itself", () => {
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a test file's text, holding a template title as written in a suite
  const source = 'it("after logout the token is refused", () => {});\ntest(`${label}: a copy starts`, () => {});';
  const files: Record<string, string> = { "tests/a.test.ts": source };
  const read = (path: string) => files[path];
  const checklist = level2Ids()
    .map((id) => `| ${id} | N/A | no such feature in this product at all |`)
    .join("\n");

  it("accepts a pointer whose quoted words are part of a title, a template title included", () => {
    const doc = `| T1 | browser | x | y | \`tests/a.test.ts\` › "logout the token" and \`tests/a.test.ts\` › "a copy starts" |\n${checklist}`;
    expect(problems(doc, read)).toEqual([]);
  });

  it("names a missing file, a missing title, a row without a test or reason, a bad status and a missing requirement", () => {
    const doc = [
      '| T1 | browser | x | y | `tests/none.test.ts` › "anything" |',
      '| T2 | headset | x | y | `tests/a.test.ts` › "before login" |',
      "| T3 | PACS | x | y | nothing here |",
      "| T4 | home headset | x | y | planned, issue 31: pairing at home |",
      ...checklist.split("\n").slice(1),
    ]
      .join("\n")
      .replace("| V1.1.3 | N/A |", "| V1.1.3 | Met |")
      .replace("| V1.1.4 | N/A |", "| V1.1.4 | Fine |");
    expect(problems(doc, read)).toEqual([
      "line 1: tests/none.test.ts does not exist",
      'line 2: no test in tests/a.test.ts is titled "…before login…"',
      "T3: no test shows its mitigation and no gap, in progress or planned reason is given",
      "V1.1.3: Met without a test",
      'V1.1.4: status "Fine" is none of Met, Partly, Untested, Gap, N/A, Site, In progress, Planned',
      "checklist lacks V1.1.1",
    ]);
  });
});
