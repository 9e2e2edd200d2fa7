import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { EyeProgression } from "../../core/analytics/progression/eye-progression.ts";
import { METHOD_IDS } from "../../core/analytics/progression/criteria/index.ts";
import { Eye, Pattern, Strategy } from "../../core/model/enums.ts";
import { exportContext } from "../../cli/export/context.ts";
import { jsonWriter, ndjsonWriter } from "../../cli/export/json.ts";
import { reportPdf } from "../../cli/export/pdf/report.ts";
import { progressionTracker } from "../../cli/export/progression.ts";
import { exportRecord, type ExportRecord } from "../../cli/export/record.ts";
import { FAKE_ORGANISATION, memorySink, sampleMeasurement, samplePatient } from "./fixtures.ts";

// Issue 20 §5: the progression analysis "on the patient's perimetry page, in the print, in the CLI's JSON". The export
// follows each patient's series as it streams: the JSON carries each eye's analysis on each pattern at its latest
// result, and the printed page (PDF, DICOM's Encapsulated PDF, FHIR's presentedForm) states its eye's analysis up to it
// in its header, as the web's printout does.

const context = exportContext(FAKE_ORGANISATION, { timeZone: "Europe/Istanbul" });
const p = samplePatient(7);
/** Right-eye 24-2 DS results a year apart, and a left-eye G one between them. */
const series = (): ExportRecord[] =>
  [
    ...[0, 1, 2, 3].map(
      (k) =>
        exportRecord(p, sampleMeasurement(p, k, { eye: Eye.Right, strategy: Strategy.DS, takenAt: `${2020 + k}-03-03T09:00:00.000Z` }))!,
    ),
    exportRecord(
      p,
      sampleMeasurement(p, 9, { eye: Eye.Left, pattern: Pattern.G, strategy: Strategy.DS, takenAt: "2021-06-01T09:00:00.000Z" }),
    )!,
  ].sort((a, b) => a.result.takenAt.localeCompare(b.result.takenAt));

describe("the export's progression analysis", () => {
  it("JSON: each eye's latest result on a pattern carries the analysis of the patient's exported series (events after 3, trends after 6 months); the others null", async () => {
    const sink = memorySink();
    const writer = jsonWriter(sink);
    for (const r of series()) await writer.write(r);
    await writer.end();
    const records = JSON.parse(sink.text()) as Array<{
      result: { eye: number; pattern: number; takenAt: string };
      progression: EyeProgression | null;
    }>;
    expect(records.map((r) => r.result.takenAt)).toEqual(series().map((r) => r.result.takenAt)); // order kept
    const right = records.filter((r) => r.result.eye === Eye.Right).map((r) => r.progression);
    expect(right.slice(0, 3)).toEqual([null, null, null]);
    const last = right[3]!;
    expect(last.used).toHaveLength(4);
    expect(last.events!.baseline).toEqual([`${p.id}-m0`, `${p.id}-m1`]);
    expect(last.noTrend).toBeNull();
    expect(last.poplr!.p).toBeGreaterThan(0);
    expect(last.poplr!.slopes).toHaveLength(54);
    expect(Number.isFinite(last.vfi!.ratePerYear)).toBe(true);
    // Every progression criterion and the reading (issue 30): four results a year apart, so the methods needing five
    // (events, PoPLR, GPA's VFI rule, CIGTS, three-omitting PLR) say so.
    expect(last.criteria!.methods.map((m) => m.method)).toEqual([...METHOD_IDS]);
    const reasons = Object.fromEntries(last.criteria!.methods.map((m) => [m.method, m.applicable ? "applies" : m.reason]));
    expect(reasons).toMatchObject({
      events: "too-few-visits",
      "md-slope": "applies",
      "plr-nouri-2012": "applies",
      "schell-2014": "applies",
    });
    // The G result of the other eye is its own series, up to it: the right eye's two results before it are set aside.
    const g = records.find((r) => r.result.pattern === Pattern.G)!.progression!;
    expect(g).toMatchObject({ eye: Eye.Left, pattern: Pattern.G, events: null, noTrend: "too-few-results" });
    expect(g.setAside.map((s) => s.reason)).toEqual(["other-eye-or-pattern", "other-eye-or-pattern"]);
  });

  it("NDJSON says the same, and a new patient starts a new series", async () => {
    const sink = memorySink();
    const writer = ndjsonWriter(sink);
    const other = samplePatient(8);
    for (const r of [...series(), exportRecord(other, sampleMeasurement(other, 0, { eye: Eye.Right, strategy: Strategy.DS }))!])
      await writer.write(r);
    await writer.end();
    const lines = sink
      .text()
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { patient: { id: string }; progression: EyeProgression | null });
    expect(lines).toHaveLength(6);
    expect(lines.at(-2)!.progression!.used).toHaveLength(4);
    expect(lines.at(-1)!.progression!.used).toEqual([`${other.id}-m0`]);
  });

  it("the printed page (PDF) states the progression line under the header, read back by pdftotext", async () => {
    const tracker = progressionTracker(context.timeZone);
    const records = series();
    const pages = await Promise.all(records.map(async (r) => reportPdf(r, context, undefined, tracker.of(r))));
    const text = (pdf: Buffer) => {
      const file = join(mkdtempSync(join(tmpdir(), "isopter-pdf-")), "page.pdf");
      writeFileSync(file, pdf);
      return spawnSync("pdftotext", [file, "-"], { encoding: "utf8" }).stdout.replace(/\s+/g, " ");
    };
    const last = text(pages[records.length - 1]!);
    expect(last).toMatch(
      /Progression analysis (No|Possible|Likely) progression \(baseline 2020-03-03 and 2021-03-03\) · PoPLR \(TD\) p = [\d.<\s]+ %(?! · VFI trend)/,
    );
    expect(last).toContain("Humphrey: MD negative = loss");
    expect(last).toContain("Octopus: MD positive = loss");
    for (const words of [
      "Test parameters",
      "Stimulus size",
      "Showtime",
      "Interval",
      "1500 ms",
      "Fixation monitoring",
      "blind spot + gaze tracking",
    ])
      expect(last).toContain(words);
    expect(text(pages[0]!)).toContain("No progression analysis: it needs at least 3 results of this pattern with a normative database.");
  });
});
