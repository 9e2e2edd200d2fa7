import { mkdirSync, readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { Option, type Command } from "commander";
import type { Pattern } from "../../core/model/enums.ts";
import { patternLabel } from "../../core/model/enums.ts";
import { collect, defineCommand, isoDateOption, sharedOptions } from "../command.ts";
import { badArguments, CliError, ExitCode } from "../exit-codes.ts";
import type { CliIo } from "../io.ts";
import { progress } from "../progress.ts";
import { openSession } from "../session.ts";
import { csvWriter } from "../export/csv.ts";
import { fhirBundleWriter } from "../export/fhir.ts";
import { eyeOption, patternOption, type ExportFilters } from "../export/filters.ts";
import { jsonWriter, ndjsonWriter } from "../export/json.ts";
import { runExport } from "../export/run-export.ts";
import { fileSink, streamSink } from "../export/sink.ts";
import type { Selection } from "../export/source.ts";
import type { ExportWriter } from "../export/writer.ts";

// isopter export: results of one patient, a list, or the whole organisation, filtered, in one of six formats.

export const exportFormats = ["csv", "json", "ndjson", "fhir", "dicom", "pdf"] as const;
export type ExportFormat = (typeof exportFormats)[number];
const perResultFiles = new Set<ExportFormat>(["dicom", "pdf"]);

interface ExportOptions {
  patient?: string[];
  patientsFile?: string;
  all?: boolean;
  format: ExportFormat;
  out?: string;
  from?: string;
  to?: string;
  pattern?: Pattern;
  eye?: number;
  reliableOnly?: boolean;
}

function selectionOf(o: ExportOptions, io: CliIo): Selection {
  const ids = [...(o.patient ?? [])];
  if (o.patientsFile !== undefined) {
    let text: string;
    try {
      text = readFileSync(resolve(io.cwd, o.patientsFile), "utf8");
    } catch (e) {
      throw badArguments(`--patients-file: cannot read ${o.patientsFile} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
    ids.push(...text.split(/[\r\n,]+/).map((s) => s.trim()).filter((s) => s !== "" && !s.startsWith("#")));
  }
  if (o.all && ids.length > 0) throw badArguments("--all exports the whole organisation: leave out --patient / --patients-file");
  if (o.all) return { kind: "organisation" };
  if (ids.length === 0) throw badArguments("say which results: --patient ID (repeatable), --patients-file FILE, or --all");
  return { kind: "patients", ids };
}

function filtersOf(o: ExportOptions): ExportFilters {
  if (o.from !== undefined && o.to !== undefined && o.from > o.to) throw badArguments(`--from ${o.from} is after --to ${o.to}`);
  return {
    ...(o.from !== undefined ? { from: o.from } : {}),
    ...(o.to !== undefined ? { to: o.to } : {}),
    ...(o.pattern !== undefined ? { pattern: o.pattern } : {}),
    ...(o.eye !== undefined ? { eye: o.eye as ExportFilters["eye"] & number } : {}),
    reliableOnly: o.reliableOnly === true,
  };
}

/** Argument checks on the output, before anything talks to the server or touches a file. */
function checkOutput(o: ExportOptions): void {
  if (perResultFiles.has(o.format) && o.out === undefined)
    throw badArguments(`--format ${o.format} writes one file per result: give a directory with --out DIR`);
  if (o.format === "csv" && o.pattern === undefined)
    throw badArguments("--format csv holds one pattern per file (the l1..ln columns): add --pattern, e.g. --pattern 24-2");
}

/** DICOM (dcmjs) and PDF load only when asked for: they are most of the CLI's memory at start. */
async function writerFor(o: ExportOptions, io: CliIo): Promise<{ writer: ExportWriter; where: string }> {
  if (perResultFiles.has(o.format) && o.out !== undefined) {
    const dir = resolve(io.cwd, o.out);
    try {
      mkdirSync(dir, { recursive: true });
      if (!statSync(dir).isDirectory()) throw new Error("not a directory");
    } catch (e) {
      throw new CliError(ExitCode.Failure, `--out ${o.out}: cannot use as a directory (${(e as Error).message})`);
    }
    const writer = o.format === "dicom" ? (await import("../export/dicom.ts")).dicomWriter(dir) : (await import("../export/pdf/report.ts")).pdfWriter(dir);
    return { writer, where: dir };
  }
  const sink = o.out === undefined || o.out === "-" ? streamSink(io.stdout, false) : fileSink(resolve(io.cwd, o.out));
  const where = o.out === undefined || o.out === "-" ? "stdout" : resolve(io.cwd, o.out);
  switch (o.format) {
    case "csv":
      return { writer: csvWriter(sink, o.pattern!), where };
    case "json":
      return { writer: jsonWriter(sink), where };
    case "ndjson":
      return { writer: ndjsonWriter(sink), where };
    case "fhir":
      return { writer: fhirBundleWriter(sink), where };
    default:
      throw badArguments(`unknown format ${o.format}`);
  }
}

export function registerExport(program: Command, io: CliIo): void {
  defineCommand(program, "export", "export results: one patient, a list, or the whole organisation")
    .option("-p, --patient <id>", "a patient's id (repeatable)", collect)
    .option("--patients-file <file>", "patient ids, one per line (or comma-separated; # starts a comment)")
    .option("--all", "every patient of the organisation")
    .addOption(new Option("-f, --format <format>", "output format").choices(exportFormats).default("csv"))
    .option("-o, --out <path>", "output file (csv, json, ndjson, fhir; default stdout) or directory (dicom, pdf)")
    .option("--from <date>", "only tests on or after this day (YYYY-MM-DD, UTC)", isoDateOption)
    .option("--to <date>", "only tests on or before this day (YYYY-MM-DD, UTC)", isoDateOption)
    .option("--pattern <pattern>", `only this pattern: ${Object.values(patternLabel).filter((l) => l !== "Undefined").join(", ")}`, patternOption)
    .option("--eye <eye>", "only this eye: right, left or binocular (OD, OS, OU)", eyeOption)
    .option("--reliable-only", "only results within the catch-trial limits and not marked unreliable")
    .addHelpText(
      "after",
      `
Formats:
  csv     visualFields layout: id, eye, date, time, age, type, fpr, fnr, fl, duration, l1..ln (needs --pattern);
          re-imports with \`isopter analyse\`
  json    a JSON array: patient, measurement, stored result and every index of core/analytics
  ndjson  the same, one result per line
  fhir    FHIR R4 Bundle (collection): Patient, a DiagnosticReport (LOINC 28629-4) per result with Observations
          (MD SNOMED 422859007, PSD, VFI, mean sensitivity, duration, fixation-loss / false-positive / false-negative ratios)
  dicom   DICOM OPV (Ophthalmic Visual Field Static Perimetry, SOP class 1.2.840.10008.5.1.4.1.1.80.1), one .dcm per result
  pdf     a one-page report per result drawn from the same plot scenes as the web print

With --all, results come a page at a time across the organisation (perimetry/page; patient by patient from a server
without that call); lists come patient by patient. Either way they are written one at a time, so exports of any size
run in steady memory.

Examples:
  isopter export --patient p123 --format pdf --out reports/
  isopter export --all --pattern 24-2 --reliable-only --from 2024-01-01 --out research.csv
  isopter export --patients-file ids.txt --format fhir --out bundle.json`,
    )
    .action(async (opts: ExportOptions, cmd: Command) => {
      const shared = sharedOptions(cmd);
      const selection = selectionOf(opts, io);
      const filters = filtersOf(opts);
      checkOutput(opts);
      const session = openSession(shared, io);
      const { writer, where } = await writerFor(opts, io);
      let written = 0;
      const bar = progress(io.stderr, "patients", undefined, () => `${written} results`);
      const summary = await runExport(session.api, selection, filters, writer, {
        patientsTotal: (n) => bar.setTotal(n),
        patientDone: () => bar.tick(),
        resultWritten: () => void written++,
      });
      bar.done();
      const report = { format: opts.format, out: where, ...summary };
      const text = `Exported ${summary.results} result${summary.results === 1 ? "" : "s"} of ${summary.patients} patient${summary.patients === 1 ? "" : "s"} as ${opts.format} to ${where}` +
        (summary.filteredOut ? ` (${summary.filteredOut} left out by the filters)` : "") + ".\n";
      // Data on stdout stays clean: the summary goes to stderr when the export itself went to stdout.
      const toStdout = where !== "stdout";
      const out = toStdout ? io.stdout : io.stderr;
      out.write(shared.json ? JSON.stringify(report) + "\n" : text);
    });
}
