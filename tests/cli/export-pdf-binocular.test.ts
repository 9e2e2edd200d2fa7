import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { integratedField, type IntegratedField } from "../../core/analytics/binocular.ts";
import { Eye, Languages, Pattern, Strategy } from "../../core/model/enums.ts";
import type { Measurement } from "../../core/model/measurement.ts";
import { resolveText, sceneMessages } from "../../core/plots/message.ts";
import { walk, type GroupNode } from "../../core/plots/scene.ts";
import { visitBinocular } from "../../cli/export/binocular.ts";
import { exportContext } from "../../cli/export/context.ts";
import { dicomWriter } from "../../cli/export/dicom-writer.ts";
import { fhirBundleWriter } from "../../cli/export/fhir.ts";
import { pageTranslate } from "../../cli/export/pdf/catalog.ts";
import { pagePrinter, pdfWriter, reportScene } from "../../cli/export/pdf/report.ts";
import { exportRecord, type ExportRecord } from "../../cli/export/record.ts";
import { runExport } from "../../cli/export/run-export.ts";
import { FAKE_ORGANISATION, fakeApi, memorySink, sampleMeasurement, samplePatient, type SampleOptions } from "./fixtures.ts";

// Issue 30 §3: "Binocular integrated visual field, per visit where both eyes were tested the same day ... Show it
// beside the two eyes, with a disability score from it, and print it." The CLI's PDF prints the field where the web's
// print does (core/plots/print-binocular.ts through printPageScene), from core's integratedField; the fellow eye may be
// tested after the printed one, so the writer holds a patient's records until the next patient's (patient-records.ts).

const timeZone = "Europe/Istanbul";
const context = exportContext(FAKE_ORGANISATION, { timeZone });
const TITLE = "Integrated field, both eyes (dB)";

/** A 24-2 DS result of `p`; `damage` lowers the listed locations to 5 dB (dense defects for the disability score). */
function result(id: number, k: number, o: SampleOptions & { damage?: readonly number[] }): ExportRecord {
  const p = samplePatient(id);
  const m = sampleMeasurement(p, k, { strategy: Strategy.DS, ...o });
  const thresholds = m.result!.thresholds.map((t, i) => (o.damage?.includes(i) ? 5 : t));
  return exportRecord(p, { ...m, result: { ...m.result!, thresholds } } as Measurement)!;
}

/** Each record's page as pdftotext reads it, written by the PDF writer as `isopter export --format pdf` writes them. */
async function pages(records: readonly ExportRecord[]): Promise<Map<string, string>> {
  const dir = mkdtempSync(join(tmpdir(), "isopter-pdf-binocular-"));
  const writer = pdfWriter(dir, context);
  for (const r of records) await writer.write(r);
  await writer.end();
  return textsOf(dir);
}

function pdftotext(file: string): string {
  const run = spawnSync("pdftotext", [file, "-"], { encoding: "utf8" });
  if (run.error) throw new Error("pdftotext did not run: bash scripts/system-deps.sh installs poppler-utils");
  return run.stdout;
}

function textsOf(dir: string): Map<string, string> {
  return new Map(readdirSync(dir).map((f) => [f.replace(/^.*_([^_]+)\.pdf$/, "$1"), pdftotext(join(dir, f))]));
}

/** The text of PDF bytes (an Encapsulated PDF's document, a presentedForm's data). */
function textOfPdf(bytes: Uint8Array): string {
  const file = join(mkdtempSync(join(tmpdir(), "isopter-pdf-binocular-doc-")), "page.pdf");
  writeFileSync(file, bytes);
  return pdftotext(file);
}

const scoreText = (f: IntegratedField) => `Disability score ${f.disability.score} of ${f.disability.max}`;

describe("the PDF export's binocular integrated field", () => {
  it("both eyes tested the same day: both pages carry the integrated field with core's disability score, each visit its own", async () => {
    // Two visits; at the second the right eye has lost its upper nasal points (3-8) and the left eye the mirrored
    // ones, so neither eye sees there and the integrated field has dense defects.
    const records = [
      result(11, 0, { eye: Eye.Right, takenAt: "2024-03-05T07:00:00.000Z" }),
      result(11, 1, { eye: Eye.Left, takenAt: "2024-03-05T07:20:00.000Z" }),
      result(11, 2, { eye: Eye.Right, takenAt: "2025-03-04T07:00:00.000Z", damage: [3, 4, 5, 6, 7, 8] }),
      result(11, 3, { eye: Eye.Left, takenAt: "2025-03-04T07:20:00.000Z", damage: [0, 1, 2, 3, 4, 5, 6, 7, 8] }),
    ];
    const first = integratedField(records[0]!.result, records[1]!.result, timeZone) as IntegratedField;
    const second = integratedField(records[2]!.result, records[3]!.result, timeZone) as IntegratedField;
    expect(first.applicable && second.applicable).toBe(true);
    expect(second.disability.dense).toBeGreaterThan(first.disability.dense);
    const texts = await pages(records);
    expect(texts.size).toBe(4);
    for (const [r, field, other] of [
      [records[0]!, first, second],
      [records[1]!, first, second],
      [records[2]!, second, first],
      [records[3]!, second, first],
    ] as const) {
      const text = texts.get(r.test.id)!;
      expect(text, r.test.id).toContain(TITLE);
      expect(text, r.test.id).toContain(scoreText(field));
      expect(text, r.test.id).not.toContain(scoreText(other));
    }
  });

  it("the page input: the visit's field goes into a cell of the print's plot grid, as the web's print places it", () => {
    const right = result(12, 0, { eye: Eye.Right, takenAt: "2024-03-05T07:00:00.000Z" });
    const left = result(12, 1, { eye: Eye.Left, takenAt: "2024-03-05T07:20:00.000Z" });
    const field = visitBinocular(right, [right, left], timeZone);
    expect(field).toEqual(integratedField(right.result, left.result, timeZone));
    const plots = walk(reportScene(right, context, undefined, null, field).nodes).find(
      (n): n is GroupNode => n.kind === "group" && n.role === "print.plots",
    )!;
    expect(plots.children.map((n) => (n as GroupNode).role)).toContain("binocular.integrated");
  });

  it("one eye only, or the other eye on another day: no integrated field on the page", async () => {
    const records = [
      result(13, 0, { eye: Eye.Right, takenAt: "2024-03-05T07:00:00.000Z" }),
      result(13, 1, { eye: Eye.Right, takenAt: "2024-09-05T07:00:00.000Z" }),
      // The next patient: both eyes, a day apart.
      result(14, 0, { eye: Eye.Right, takenAt: "2024-03-05T07:00:00.000Z" }),
      result(14, 1, { eye: Eye.Left, takenAt: "2024-03-06T07:00:00.000Z" }),
    ];
    for (const r of records)
      expect(
        visitBinocular(
          r,
          records.filter((x) => x.patient.id === r.patient.id),
          timeZone,
        ),
      ).toEqual({
        applicable: false,
        reason: "not-same-day",
      });
    const texts = await pages(records);
    expect(texts.size).toBe(4);
    for (const [id, text] of texts) expect(text, id).not.toContain(TITLE);
  });

  it("the two eyes on different patterns that day: 'different-patterns', as the web's page says; the print leaves it out, as the web's does", async () => {
    const right = result(15, 0, { eye: Eye.Right, takenAt: "2024-03-05T07:00:00.000Z" });
    const left = result(15, 1, { eye: Eye.Left, pattern: Pattern.P30_2, takenAt: "2024-03-05T07:20:00.000Z" });
    for (const r of [right, left])
      expect(visitBinocular(r, [right, left], timeZone)).toEqual({ applicable: false, reason: "different-patterns" });
    const texts = await pages([right, left]);
    expect(texts.size).toBe(2);
    for (const [id, text] of texts) expect(text, id).not.toContain(TITLE);
  });

  it("the day is the clinic's: 00:30 and 09:00 in Istanbul are one visit though UTC dates them apart", () => {
    const right = result(16, 0, { eye: Eye.Right, takenAt: "2024-03-05T21:30:00.000Z" });
    const left = result(16, 1, { eye: Eye.Left, takenAt: "2024-03-06T06:00:00.000Z" });
    expect(visitBinocular(left, [right, left], timeZone)?.applicable).toBe(true);
    expect(visitBinocular(left, [right, left], "UTC")).toEqual({ applicable: false, reason: "not-same-day" });
    // Esterman is binocular already: no fellow to look for.
    const esterman = result(16, 2, { eye: Eye.Binocular, pattern: Pattern.Esterman, strategy: Strategy.OneLevel });
    expect(visitBinocular(esterman, [right, left, esterman], timeZone)).toBeNull();
  });

  it("through runExport: a patient's pages wait for the next patient's first record; each patient's visits pair only with their own", async () => {
    // Patient 0: both eyes on one day; patient 1: the right eye only, the same day as patient 0's visit.
    const api = fakeApi({
      patients: 2,
      resultsPerPatient: 2,
      options: (i, k) => ({
        strategy: Strategy.DS,
        eye: i === 0 && k === 1 ? Eye.Left : Eye.Right,
        takenAt: `2024-03-05T0${7 + k}:00:00.000Z`,
      }),
    });
    const dir = mkdtempSync(join(tmpdir(), "isopter-pdf-binocular-run-"));
    const summary = await runExport(api, { kind: "organisation" }, { reliableOnly: false }, pdfWriter(dir, context));
    expect(summary.results).toBe(4);
    const texts = textsOf(dir);
    expect(
      [...texts]
        .filter(([, t]) => t.includes(TITLE))
        .map(([id]) => id)
        .sort(),
    ).toEqual(["p00000-m0", "p00000-m1"]);
  });

  it("the printed page inside DICOM (Encapsulated PDF) and FHIR (presentedForm) carries it too, the fellow eye tested after", async () => {
    const records = [
      result(18, 0, { eye: Eye.Right, takenAt: "2024-03-05T07:00:00.000Z" }),
      result(18, 1, { eye: Eye.Left, takenAt: "2024-03-05T07:20:00.000Z" }),
      result(19, 0, { eye: Eye.Right, takenAt: "2024-03-05T07:00:00.000Z" }),
    ];
    const dir = mkdtempSync(join(tmpdir(), "isopter-pdf-binocular-dicom-"));
    const dicom = dicomWriter(dir, { context, pdf: pagePrinter(context) });
    for (const r of records) await dicom.write(r);
    await dicom.end();
    const reports = dicom.files.filter((f) => f.endsWith("_report.dcm"));
    expect(reports).toHaveLength(3);
    const documentOf = (file: string) => {
      const bytes = readFileSync(file);
      return bytes.subarray(bytes.indexOf("%PDF-"), bytes.lastIndexOf("%%EOF") + 5);
    };
    expect(reports.map((f) => textOfPdf(documentOf(f)).includes(TITLE))).toEqual([true, true, false]);

    const sink = memorySink();
    const fhir = fhirBundleWriter(sink, { context, pdf: pagePrinter(context) });
    for (const r of records) await fhir.write(r);
    await fhir.end();
    const forms = (
      JSON.parse(sink.text()) as { entry: Array<{ resource: { resourceType: string; presentedForm?: Array<{ data: string }> } }> }
    ).entry
      .filter((e) => e.resource.resourceType === "DiagnosticReport")
      .map((e) => textOfPdf(Buffer.from(e.resource.presentedForm![0]!.data, "base64")));
    expect(forms.map((t) => t.includes(TITLE))).toEqual([true, true, false]);
  });

  it("every text of the integrated field is in each of the ten languages' catalogs", () => {
    const right = result(17, 0, { eye: Eye.Right, takenAt: "2024-03-05T07:00:00.000Z", damage: [3, 4, 5] });
    const left = result(17, 1, { eye: Eye.Left, takenAt: "2024-03-05T07:20:00.000Z", damage: [0, 1, 2, 3, 4, 5, 6, 7, 8] });
    const scene = reportScene(right, context, undefined, null, visitBinocular(right, [right, left], timeZone));
    const messages = sceneMessages(scene).filter((m) => m.id.startsWith("plots.binocular."));
    expect(new Set(messages.map((m) => m.id))).toEqual(
      new Set([
        "plots.binocular.title",
        "plots.binocular.score",
        "plots.binocular.dense",
        "plots.binocular.relative",
        "plots.binocular.fromRight",
        "plots.binocular.fromLeft",
      ]),
    );
    for (const language of Languages.filter((l) => l !== "en")) {
      const translate = pageTranslate(language)!;
      expect(
        messages.filter((m) => translate(m) === undefined).map((m) => m.id),
        language,
      ).toEqual([]);
      for (const m of messages) expect(resolveText(m, translate), `${language} ${m.id}`).not.toMatch(/\{\w+\}|\[object/);
    }
  });
});
