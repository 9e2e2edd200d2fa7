import { mkdirSync, readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { Option, type Command } from "commander";
import type { Language, Pattern } from "../../core/model/enums.ts";
import { Languages, patternLabel } from "../../core/model/enums.ts";
import { collect, defineCommand, isoDateOption, sharedOptions } from "../command.ts";
import { badArguments, CliError, ExitCode } from "../exit-codes.ts";
import type { CliIo } from "../io.ts";
import { progress } from "../progress.ts";
import { openSession } from "../session.ts";
import { csvWriter } from "../export/csv.ts";
import { exportContext, type ExportContext } from "../export/context.ts";
import { bundleTypes, fhirBundleWriter, type BundleType } from "../export/fhir.ts";
import { isTimeZone } from "../../core/model/clinic-time.ts";
import type { Api } from "../../core/ports.ts";
import {
  AssociationRejected,
  parseStoreTarget,
  statusText,
  storeFiles,
  type StoreOutcome,
  type StoreTarget,
} from "../export/dicom-send.ts";
import { parseStowUrl, redactUrl, StowRefused, stowFiles, type StowTarget } from "../export/dicom-stow.ts";
import { eyeOption, patternOption, type ExportFilters } from "../export/filters.ts";
import { jsonWriter, ndjsonWriter } from "../export/json.ts";
import { runExport } from "../export/run-export.ts";
import { fileSink, streamSink } from "../export/sink.ts";
import type { PageRenderer } from "../export/record.ts";
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
  timeZone?: string;
  patientIdSystem?: string;
  language?: Language;
  bundle: BundleType;
  withPdf?: boolean;
  stages?: boolean;
  send?: string;
  stow?: string;
}

/** Formats that name the clinic, its patients' identifiers or its wall-clock time. */
const clinicalFormats = new Set<ExportFormat>(["fhir", "dicom", "pdf"]);

/** The organisation (organisation/current) and the options that say how the clinic times and names things. */
async function contextOf(api: Api, o: ExportOptions, io: CliIo): Promise<ExportContext> {
  const organisation = await api.call("organisation.current", {});
  return exportContext(organisation, {
    timeZone: o.timeZone ?? io.env.ISOPTER_TIME_ZONE ?? io.env.TZ ?? undefined,
    patientIdSystem: o.patientIdSystem ?? io.env.ISOPTER_PATIENT_ID_SYSTEM ?? undefined,
    language: languageOf(o, io),
  });
}

/** --language, else $ISOPTER_LANGUAGE, else English. */
function languageOf(o: ExportOptions, io: CliIo): Language {
  const chosen = o.language ?? io.env.ISOPTER_LANGUAGE ?? "en";
  if (!(Languages as readonly string[]).includes(chosen))
    throw badArguments(`ISOPTER_LANGUAGE=${chosen}: not an interface language (${Languages.join(", ")})`);
  return chosen as Language;
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
    ids.push(
      ...text
        .split(/[\r\n,]+/)
        .map((s) => s.trim())
        .filter((s) => s !== "" && !s.startsWith("#")),
    );
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
  if (o.timeZone !== undefined && !isTimeZone(o.timeZone))
    throw badArguments(`--time-zone ${o.timeZone}: not a time zone this system knows (an IANA name such as Europe/Berlin)`);
  if (o.patientIdSystem !== undefined && !/^(https?:\/\/\S+|urn:oid:[0-2](\.\d+)+|urn:uuid:[0-9a-f-]{36})$/.test(o.patientIdSystem))
    throw badArguments(`--patient-id-system ${o.patientIdSystem}: give a URI (https://..., urn:oid:1.2.3 or urn:uuid:...)`);
  if (o.send !== undefined && o.format !== "dicom") throw badArguments("--send stores DICOM in a PACS: use it with --format dicom");
  if (o.send !== undefined && parseStoreTarget(o.send) === null)
    throw badArguments(`--send ${o.send}: give the receiver as AET@HOST:PORT, e.g. --send PACS@10.0.0.5:104`);
  if (o.stow !== undefined && o.format !== "dicom") throw badArguments("--stow stores DICOM by STOW-RS: use it with --format dicom");
  if (o.stow !== undefined && parseStowUrl(o.stow) === null)
    throw badArguments(
      `--stow ${redactUrl(o.stow)}: give the DICOMweb service's http(s) URL, e.g. --stow https://pacs.clinic.example/dicom-web`,
    );
  if (o.stages && o.format !== "csv") throw badArguments("--stages adds columns to the CSV: use it with --format csv");
  if (o.format === "csv" && o.pattern === undefined)
    throw badArguments("--format csv holds one pattern per file (the l1..ln columns): add --pattern, e.g. --pattern 24-2");
}

/** DICOM (dcmjs) and PDF load only when asked for: they are most of the CLI's memory at start. */
async function writerFor(
  o: ExportOptions,
  io: CliIo,
  context: ExportContext | null,
): Promise<{ writer: ExportWriter; where: string; files?: readonly string[] }> {
  if (perResultFiles.has(o.format) && o.out !== undefined) {
    const dir = resolve(io.cwd, o.out);
    try {
      mkdirSync(dir, { recursive: true });
      if (!statSync(dir).isDirectory()) throw new Error("not a directory");
    } catch (e) {
      throw new CliError(ExitCode.Failure, `--out ${o.out}: cannot use as a directory (${(e as Error).message})`);
    }
    if (o.format === "dicom") {
      const writer = (await import("../export/dicom-writer.ts")).dicomWriter(dir, {
        context: context!,
        pdf: await pdfRenderer(context!),
        // What the standard wants and the stored result cannot say: the file is written with what can be said.
        warn: (r, message) => io.stderr.write(`warning: result ${r.test.id} (patient ${r.patient.uniqueId}): ${message}\n`),
      });
      return { writer, where: dir, files: writer.files };
    }
    return { writer: (await import("../export/pdf/report.ts")).pdfWriter(dir, context!), where: dir };
  }
  const sink = o.out === undefined || o.out === "-" ? streamSink(io.stdout, false) : outFile(o.out, io);
  const where = o.out === undefined || o.out === "-" ? "stdout" : resolve(io.cwd, o.out);
  switch (o.format) {
    case "csv":
      return { writer: csvWriter(sink, o.pattern!, { stages: o.stages ?? false }), where };
    case "json":
      return { writer: jsonWriter(sink), where };
    case "ndjson":
      return { writer: ndjsonWriter(sink), where };
    case "fhir":
      return {
        writer: fhirBundleWriter(sink, {
          context: context!,
          type: o.bundle,
          ...(o.withPdf ? { pdf: await pdfRenderer(context!) } : {}),
          // What the IG's resources cannot say of a result (no normative database: no MD, PSD, VFI): written without it.
          warn: (r, message) => io.stderr.write(`warning: result ${r.test.id} (patient ${r.patient.uniqueId}): ${message}\n`),
        }),
        where,
      };
    default:
      throw badArguments(`unknown format ${o.format}`);
  }
}

/** The --out file, opened (and emptied) before the export reads anything, so a path that cannot be written is said first. */
function outFile(out: string, io: CliIo) {
  try {
    return fileSink(resolve(io.cwd, out));
  } catch (e) {
    throw new CliError(ExitCode.Failure, `--out ${out}: cannot write (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
}

/** C-STORE of the written files; each refused file is named with its status, and the exit code says so. */
async function sendToPacs(target: StoreTarget, files: readonly string[], io: CliIo, json: boolean): Promise<void> {
  let outcomes: StoreOutcome[];
  try {
    outcomes = await storeFiles(target, files);
  } catch (e) {
    // A receiver that answered and refused us is a refusal (1: "the server refused"); one not reached is 4.
    throw new CliError(e instanceof AssociationRejected ? ExitCode.Failure : ExitCode.Unreachable, `--send: ${(e as Error).message}`);
  }
  const refused = outcomes.filter((o) => !o.stored);
  for (const o of refused) io.stderr.write(`not stored: ${o.file} (status ${statusText(o.status)}${o.reason ? `: ${o.reason}` : ""})\n`);
  const summary = {
    sent: outcomes.length,
    stored: outcomes.length - refused.length,
    refused: refused.map((o) => ({ file: o.file, status: statusText(o.status), ...(o.reason ? { reason: o.reason } : {}) })),
  };
  io.stderr.write(
    json
      ? JSON.stringify(summary) + "\n"
      : `Stored ${summary.stored} of ${summary.sent} files in ${target.aet}@${target.host}:${target.port}.\n`,
  );
  if (refused.length > 0)
    throw new CliError(ExitCode.Failure, `${refused.length} of ${outcomes.length} files were not stored by ${target.aet}`);
}

/** STOW-RS of the written files, reported as --send reports: each refused file named with its status, the same exit codes. */
async function stowToDicomWeb(target: StowTarget, files: readonly string[], io: CliIo, json: boolean): Promise<void> {
  let outcomes: StoreOutcome[];
  try {
    outcomes = await stowFiles(target, files);
  } catch (e) {
    // A server that answered with an HTTP error refused us (1); one not reached is 4.
    throw new CliError(e instanceof StowRefused ? ExitCode.Failure : ExitCode.Unreachable, `--stow: ${(e as Error).message}`);
  }
  const refused = outcomes.filter((o) => !o.stored);
  for (const o of refused) io.stderr.write(`not stored: ${o.file} (status ${statusText(o.status)}${o.reason ? `: ${o.reason}` : ""})\n`);
  const summary = {
    stow: target.display,
    sent: outcomes.length,
    stored: outcomes.length - refused.length,
    refused: refused.map((o) => ({ file: o.file, status: statusText(o.status), ...(o.reason ? { reason: o.reason } : {}) })),
  };
  io.stderr.write(json ? JSON.stringify(summary) + "\n" : `Stored ${summary.stored} of ${summary.sent} files in ${target.display}.\n`);
  if (refused.length > 0)
    throw new CliError(ExitCode.Failure, `${refused.length} of ${outcomes.length} files were not stored by ${target.display}`);
}

/**
 * The printed page of a result as PDF bytes, given the patient's records (the visit's fellow eye may come after it:
 * the DICOM and FHIR writers hold a patient's records); pdfkit and the fonts load only when asked for.
 */
async function pdfRenderer(context: ExportContext): Promise<PageRenderer> {
  const print = (await import("../export/pdf/report.ts")).pagePrinter(context);
  return async (r, patientRecords) => {
    const pdf = await print(r, patientRecords);
    // A page takes a good part of a second to draw: let the event loop breathe between pages (sockets, the sink).
    await new Promise((resolve) => setImmediate(resolve));
    return pdf;
  };
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
    .option(
      "--pattern <pattern>",
      `only this pattern: ${Object.values(patternLabel)
        .filter((l) => l !== "Undefined")
        .join(", ")}`,
      patternOption,
    )
    .option("--eye <eye>", "only this eye: right, left or binocular (OD, OS, OU)", eyeOption)
    .option("--reliable-only", "only results within the catch-trial limits and not marked unreliable")
    .option(
      "--time-zone <zone>",
      "the clinic's IANA time zone for printed, DICOM and FHIR times (default $ISOPTER_TIME_ZONE, else this system's)",
    )
    .addOption(
      new Option(
        "--language <code>",
        "the language of the printed page (pdf, and the pages inside dicom and fhir --with-pdf; default $ISOPTER_LANGUAGE, else en)",
      ).choices(Languages),
    )
    .option(
      "--patient-id-system <uri>",
      "FHIR identifier system of the patients' ids (default $ISOPTER_PATIENT_ID_SYSTEM, else an OID of the organisation)",
    )
    .addOption(
      new Option("--bundle <type>", "FHIR Bundle type: collection, or transaction for a FHIR server")
        .choices(bundleTypes)
        .default("collection"),
    )
    .option(
      "--stages",
      "CSV: append the glaucoma stages (hpa, gss2, agis, cigts) after l1..ln; isopter analyse reads them past, R's visualFields does not",
    )
    .option("--with-pdf", "FHIR: attach the printed page to each DiagnosticReport (presentedForm; about a PDF page per result)")
    .option("--send <AET@HOST:PORT>", "DICOM: store the files in a PACS by C-STORE after writing them")
    .option(
      "--stow <URL>",
      "DICOM: store the files by DICOMweb STOW-RS after writing them (the service's root, e.g. https://pacs.example/dicom-web; basic authentication as https://user:password@...)",
    )
    .addHelpText(
      "after",
      `
Formats:
  csv     visualFields layout: id, eye, date, time, age, type, fpr, fnr, fl, duration, l1..ln (needs --pattern);
          re-imports with \`isopter analyse\`
  json    a JSON array: patient, measurement, stored result and every index of core/analytics
  ndjson  the same, one result per line
  fhir    FHIR R4 Bundle after the HL7 Eye Care IG: Patient (record number under --patient-id-system), per result a
          DiagnosticReport (diagnostic-report-visual-field: Ophthalmology, SNOMED 103752008 / LOINC 28629-4, the printed
          page as presentedForm with --with-pdf) with Observations (MD, PSD with p-values, test duration, fixation
          loss and false positive / negative ratios, VFI, GHT; the normative database and version as method;
          screenings and Esterman: locations seen of those tested); --bundle transaction for a FHIR server
  dicom   per result a DICOM OPV (SOP class 1.2.840.10008.5.1.4.1.1.80.1) NAME.dcm and its printed page as Encapsulated
          PDF NAME_report.dcm, one study per visit; --send AET@HOST:PORT stores them in a PACS (C-STORE),
          --stow URL by DICOMweb (STOW-RS, POST URL/studies)
  pdf     the printed page per result: the web's print scene, fonts embedded, times on the clinic's clock, texts in
          --language (en, fr, de, it, es, chi, mexsp, bp, nl, tr); with the visit's binocular integrated field when
          both eyes' results of the day are exported (--eye leaves the fellow eye out, and so the field)

With --all, results come a page at a time across the organisation (perimetry/page; patient by patient from a server
without that call); lists come patient by patient. Either way they are written one at a time, CSV as they come, the
others when the patient's last has come (a page states the patient's other results), so memory is bounded by the
largest patient's results, whatever the size of the export.

Examples:
  isopter export --patient p123 --format pdf --out reports/ --time-zone Europe/Istanbul --language tr
  isopter export --all --format dicom --out dcm/ --send PACS@10.0.0.5:104
  isopter export --all --format dicom --out dcm/ --stow https://pacs.clinic.example/dicom-web
  isopter export --all --format fhir --bundle transaction --patient-id-system https://clinic.example/mrn --out bundle.json
  isopter export --all --pattern 24-2 --reliable-only --from 2024-01-01 --out research.csv
  isopter export --patients-file ids.txt --format fhir --out bundle.json`,
    )
    .action(async (opts: ExportOptions, cmd: Command) => {
      const shared = sharedOptions(cmd);
      const selection = selectionOf(opts, io);
      const filters = filtersOf(opts);
      checkOutput(opts);
      languageOf(opts, io); // a wrong $ISOPTER_LANGUAGE is said before anything talks to the server
      const session = openSession(shared, io);
      const context = clinicalFormats.has(opts.format) ? await contextOf(session.api, opts, io) : null;
      const { writer, where, files } = await writerFor(opts, io, context);
      let written = 0;
      const bar = progress(io.stderr, "patients", undefined, () => `${written} results`);
      const summary = await runExport(session.api, selection, filters, writer, {
        patientsTotal: (n) => bar.setTotal(n),
        patientDone: () => bar.tick(),
        resultWritten: () => void written++,
      });
      bar.done();
      const report = { format: opts.format, out: where, ...summary };
      const text =
        `Exported ${summary.results} result${summary.results === 1 ? "" : "s"} of ${summary.patients} patient${summary.patients === 1 ? "" : "s"} as ${opts.format} to ${where}` +
        (summary.filteredOut ? ` (${summary.filteredOut} left out by the filters)` : "") +
        ".\n" +
        (summary.invalid.length
          ? `Left out ${summary.invalid.length} result${summary.invalid.length === 1 ? "" : "s"} lacking a value for some location of the pattern, which cannot be analysed: ${summary.invalid.join(", ")}.\n`
          : "");
      // Data on stdout stays clean: the summary goes to stderr when the export itself went to stdout.
      const toStdout = where !== "stdout";
      const out = toStdout ? io.stdout : io.stderr;
      out.write(shared.json ? JSON.stringify(report) + "\n" : text);
      // --send and --stow each store every file: a failure of the first does not stop the second, and each is said.
      const failures: CliError[] = [];
      const store = async (run: () => Promise<void>) => {
        try {
          await run();
        } catch (e) {
          if (!(e instanceof CliError)) throw e;
          failures.push(e);
        }
      };
      if (opts.send !== undefined && files) await store(() => sendToPacs(parseStoreTarget(opts.send!)!, files, io, shared.json));
      if (opts.stow !== undefined && files) await store(() => stowToDicomWeb(parseStowUrl(opts.stow!)!, files, io, shared.json));
      for (const f of failures.slice(0, -1)) io.stderr.write(`isopter: ${f.message}\n`);
      if (failures.length > 0) throw new CliError(failures[0]!.exitCode, failures.at(-1)!.message);
    });
}
