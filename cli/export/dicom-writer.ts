import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ExportContext } from "./context.ts";
import { opvFile, part10 } from "./dicom.ts";
import { pdfDataset } from "./dicom-pdf.ts";
import { heldPerPatient } from "./patient-records.ts";
import { recordFileName, type ExportRecord, type PageRenderer } from "./record.ts";
import type { ExportWriter } from "./writer.ts";

// Per result two Part 10 files in the directory: NAME.dcm (the OPV measurements) and NAME_report.dcm (the printed page
// as Encapsulated PDF), both in the visit's study. The paths written are kept for --send, which stores them at the end.
// A patient's files are written when the next patient's first record comes, or at the end (patient-records.ts): the
// printed page carries the visit's binocular field, whose fellow eye may have been tested after it.

export interface DicomWriterOptions {
  readonly context: ExportContext;
  /** The printed page; no Encapsulated PDF when left out. */
  readonly pdf?: PageRenderer;
  /** What the standard wants and the result cannot say, per result. */
  readonly warn?: (r: ExportRecord, message: string) => void;
}

export function dicomWriter(dir: string, options: DicomWriterOptions): ExportWriter & { readonly files: readonly string[] } {
  const files: string[] = [];
  const write = async (r: ExportRecord, patientRecords: readonly ExportRecord[]) => {
    const warned = new Set<string>();
    // One warning of a kind per result: the OPV and its PDF share the patient and equipment attributes.
    const warn = (message: string) => {
      if (warned.has(message)) return;
      warned.add(message);
      options.warn?.(r, message);
    };
    const opv = join(dir, recordFileName(r, "dcm"));
    await writeFile(opv, opvFile(r, options.context, warn));
    files.push(opv);
    if (options.pdf) {
      const pdf = join(dir, recordFileName(r, "dcm").replace(/\.dcm$/, "_report.dcm"));
      await writeFile(pdf, part10(pdfDataset(r, await options.pdf(r, patientRecords), options.context, warn)));
      files.push(pdf);
    }
  };
  const held = heldPerPatient(async (records) => {
    for (const r of records) await write(r, records);
  });
  return { files, write: (r) => held.add(r), end: () => held.flush() };
}
