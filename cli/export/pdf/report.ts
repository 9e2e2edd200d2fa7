import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import PDFDocument from "pdfkit";
import type { IntegratedFieldOutcome } from "../../../core/analytics/binocular.ts";
import { clinicTime } from "../../../core/model/clinic-time.ts";
import { patternLabel } from "../../../core/model/enums.ts";
import { languageTag } from "../../../core/model/language-tags.ts";
import type { PrintProgression } from "../../../core/plots/print-header.ts";
import { printPageScene } from "../../../core/plots/print-page.ts";
import { resolveText } from "../../../core/plots/message.ts";
import { message, type Scene } from "../../../core/plots/scene.ts";
import { visitBinocular } from "../binocular.ts";
import type { ExportContext } from "../context.ts";
import { heldPerPatient } from "../patient-records.ts";
import { eyeCode, recordFileName, type ExportRecord } from "../record.ts";
import type { ExportWriter } from "../writer.ts";
import { progressionTracker } from "../progression.ts";
import { pageTranslate } from "./catalog.ts";
import { pageFonts, type PageFonts } from "./fonts.ts";
import { drawScene } from "./scene-to-pdfkit.ts";

// One A4 page per result: core/plots' print scene (the page the web prints) drawn with pdfkit, fonts embedded
// (fonts.ts), times on the clinic's clock, texts in the export's language (catalog.ts). The text is real text:
// pdftotext reads it back. A page states what the web's does of the patient's other results (pagePrinter): the eye's
// progression up to it, the difference from the previous result, and the visit's binocular integrated field.

export const A4 = { width: 595.28, height: 841.89 } as const;
/** The scene is laid out in CSS px as the browser prints it (96 per inch), and scaled to PDF points (72 per inch). */
const PX_PER_MM = 96 / 25.4;
const POINTS_PER_PX = 72 / 96;

/**
 * The print scene of a result on A4 in CSS px: the very scene the web's print layout draws. With `progression` (the
 * export's progressionTracker) the header states the eye's progression analysis up to this result; with `reference`
 * (the tracker's referenceOf: the previous result of the same eye and pattern) the page has the "Difference (dB)" plot
 * the web's page has; with `binocular` (binocular.ts visitBinocular) the visit's integrated field where the web's print
 * has it (core/plots/print-binocular.ts: in a cell of the plot grid when it applies, nothing otherwise).
 */
export function reportScene(
  r: ExportRecord,
  context: ExportContext,
  progression?: PrintProgression,
  reference?: ExportRecord | null,
  binocular?: IntegratedFieldOutcome | null,
): Scene {
  return printPageScene({
    patient: r.patient,
    age: r.age,
    result: r.result,
    analysis: r.analysis(),
    markedReliable: r.test.reliable,
    taken: clinicTime(r.result.takenAt, context.timeZone),
    reference: reference?.result.thresholds ?? null,
    ...(progression ? { progression } : {}),
    ...(binocular ? { binocular } : {}),
    page: { width: 210 * PX_PER_MM, height: 297 * PX_PER_MM, unitsPerMm: PX_PER_MM },
  });
}

export async function reportPdf(
  r: ExportRecord,
  context: ExportContext,
  fonts: PageFonts = pageFonts(),
  progression?: PrintProgression,
  reference?: ExportRecord | null,
  binocular?: IntegratedFieldOutcome | null,
): Promise<Buffer> {
  const taken = clinicTime(r.result.takenAt, context.timeZone);
  const translate = pageTranslate(context.language);
  // The document's title (a viewer's window and tab) in the page's language: the page's own title text.
  const perimetry = resolveText(message("plots.print.title", "Perimetry"), translate);
  const doc = new PDFDocument({
    size: [A4.width, A4.height],
    margin: 0,
    autoFirstPage: true,
    // Same result, same bytes: no creation date of now, no random file id.
    info: {
      Title: `${perimetry} ${patternLabel[r.result.pattern]} ${eyeCode(r.result.eye)} ${taken.date}: ${r.patient.name}`,
      Subject: `Isopter result ${r.test.id}`,
      Creator: "Isopter",
      Producer: "Isopter (pdfkit)",
      CreationDate: new Date(Date.parse(r.result.takenAt)),
    },
    lang: languageTag[context.language],
    pdfVersion: "1.7",
  });
  doc.registerFont("regular", fonts.regular);
  doc.registerFont("bold", fonts.bold);
  doc.registerFont("fallback", fonts.fallback.file, fonts.fallback.face);
  const chunks: Buffer[] = [];
  doc.on("data", (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve, reject) => {
    doc.on("end", () => resolve());
    doc.on("error", reject);
  });
  doc.scale(POINTS_PER_PX);
  drawScene(
    doc,
    reportScene(r, context, progression, reference, binocular),
    { regular: "regular", bold: "bold", fallback: "fallback" },
    translate ? { translate } : {},
  );
  doc.end();
  await done;
  return Buffer.concat(chunks);
}

/** A page of each result given with its patient's records (all of them, the later ones too), in the order they came. */
export type PagePrinter = (r: ExportRecord, patientRecords: readonly ExportRecord[]) => Promise<Buffer>;

/**
 * The printed page of each of a patient's records as the web prints it: the eye's progression up to it and its
 * reference (progressionTracker, which follows the records as they come: a patient's together, oldest first) and the
 * visit's binocular integrated field, whose fellow eye may have been tested after it (hence the patient's records).
 */
export function pagePrinter(context: ExportContext, fonts: PageFonts = pageFonts()): PagePrinter {
  const series = progressionTracker(context.timeZone);
  return (r, patientRecords) =>
    reportPdf(r, context, fonts, series.of(r), series.referenceOf(r), visitBinocular(r, patientRecords, context.timeZone));
}

/** One PDF per result; a patient's pages are written when the next patient's first record comes, or at the end. */
export function pdfWriter(dir: string, context: ExportContext): ExportWriter {
  const print = pagePrinter(context);
  const held = heldPerPatient(async (records) => {
    for (const r of records) await writeFile(join(dir, recordFileName(r, "pdf")), await print(r, records));
  });
  return { write: (r) => held.add(r), end: () => held.flush() };
}
