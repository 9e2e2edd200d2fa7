import { ApiError } from "../model/contract/errors.ts";
import { IMPORT_FILES_MAX, type ImportFile, type ImportFileReport, type ImportReport } from "../model/import.ts";
import type { Api } from "../ports.ts";

// Importing results taken elsewhere (issue 29) from the web, as `isopter import` does from the command line
// (cli/commands/import.ts): the files go to results/import in batches of at most 100 files and about 3 MB of content
// (the server takes bodies up to 5 MB), DICOM as base64 and text as UTF-8, two batches in flight while the next is
// encoded; the reports come back in the order the files were given. Each file is one transaction on the server.

/** What one call may carry, in characters of content (as the CLI counts them). */
export const IMPORT_BATCH_CHARS = 3_000_000;
/** Calls in flight at once (as the CLI). */
const IN_FLIGHT = 2;

/** One file to import: its name as the user chose it (a path below the folder dropped) and its bytes, or how to read them
 * (so a folder of thousands of files is read batch by batch, not all at once). */
export interface ImportSource {
  readonly name: string;
  readonly bytes: Uint8Array | (() => Promise<Uint8Array>);
}

export interface ImportOptions {
  /** Say what would happen and write nothing. */
  readonly dryRun: boolean;
  /** On a patient's page: every field must be this patient's. */
  readonly patientId?: string | null;
  /** visualFields CSV: its id column's value -> the patient's unique id. */
  readonly csvPatients?: Readonly<Record<string, string>>;
}

/** Files whose report has come back (or that were refused before sending), of all files given. */
export interface ImportProgress {
  readonly done: number;
  readonly total: number;
}

/** The counts of the whole import, as the CLI's summary line gives them. */
export interface ImportSummary {
  readonly files: number;
  readonly imported: number;
  readonly duplicates: number;
  readonly refused: number;
  /** Fields imported (or that would be) in the files imported. */
  readonly fields: number;
  /** Patients created (or that would be), counted once each. */
  readonly patientsCreated: number;
}

/** A DICOM Part 10 file: the preamble's 128 bytes, then "DICM". */
export const isDicom = (bytes: Uint8Array): boolean =>
  bytes.length > 132 && bytes[128] === 0x44 && bytes[129] === 0x49 && bytes[130] === 0x43 && bytes[131] === 0x4d;

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** Standard base64 with padding (no btoa: core runs in Node and browsers alike, and btoa takes strings). */
export function toBase64(bytes: Uint8Array): string {
  const parts: string[] = [];
  const chunk = 3 * 8192;
  for (let start = 0; start < bytes.length; start += chunk) {
    const end = Math.min(bytes.length, start + chunk);
    const codes: number[] = [];
    let i = start;
    for (; i + 2 < end; i += 3) {
      const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
      codes.push(B64.charCodeAt(n >> 18), B64.charCodeAt((n >> 12) & 63), B64.charCodeAt((n >> 6) & 63), B64.charCodeAt(n & 63));
    }
    if (i < end) {
      const two = i + 1 < end;
      const n = (bytes[i]! << 16) | (two ? bytes[i + 1]! << 8 : 0);
      codes.push(B64.charCodeAt(n >> 18), B64.charCodeAt((n >> 12) & 63), two ? B64.charCodeAt((n >> 6) & 63) : 61, 61);
    }
    parts.push(String.fromCharCode(...codes));
  }
  return parts.join("");
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The file as results/import takes it: DICOM as base64; else UTF-8 text when it decodes as UTF-8; else base64. */
export function toImportFile(name: string, bytes: Uint8Array): ImportFile {
  if (!isDicom(bytes))
    try {
      return { name, encoding: "utf8", content: utf8.decode(bytes) };
    } catch {
      // not UTF-8: sent as it is
    }
  return { name, encoding: "base64", content: toBase64(bytes) };
}

const refused = (file: string, reason: string): ImportFileReport => ({ file, format: null, action: "refused", reason, items: [] });

/** The counts of a report (the CLI's summary). */
export function importSummary(report: ImportReport): ImportSummary {
  const count = (a: ImportFileReport["action"]) => report.files.filter((r) => r.action === a).length;
  const fields = report.files.flatMap((r) => (r.action === "imported" ? r.items.filter((i) => i.action === "imported") : []));
  const created = new Set(fields.filter((i) => i.patient?.match === "created").map((i) => i.patient!.uniqueId));
  return {
    files: report.files.length,
    imported: count("imported"),
    duplicates: count("duplicate"),
    refused: count("refused"),
    fields: fields.length,
    patientsCreated: created.size,
  };
}

/**
 * Sends the files in batches and answers every file's report in the order given. A file that cannot be read or is too
 * large for one call is refused here; a call that fails is reported as its files refused (with the server's message)
 * and the rest goes on, except a refusal of the user (401, 403), which rejects with the ApiError: nothing more is sent.
 */
export async function sendImport(
  api: Api,
  sources: readonly ImportSource[],
  options: ImportOptions,
  onProgress?: (progress: ImportProgress) => void,
): Promise<ImportReport> {
  const total = sources.length;
  let done = 0;
  const progressed = (n: number) => {
    done += n;
    onProgress?.({ done, total });
  };
  onProgress?.({ done, total });
  const body = {
    dryRun: options.dryRun,
    ...(options.patientId ? { patientId: options.patientId } : {}),
    ...(options.csvPatients ? { csvPatients: { ...options.csvPatients } } : {}),
  };
  /** Each file's report at its place in the order given (a file refused here may come before its batch is sent). */
  const reports: Array<readonly ImportFileReport[]> = [];
  /** The server answers a batch file by file in the order sent; should it not, the batch's answer stays together. */
  const place = (at: readonly number[], answer: readonly ImportFileReport[]) => {
    if (answer.length === at.length) at.forEach((i, k) => void (reports[i] = [answer[k]!]));
    else reports[at[0]!] = answer;
  };
  const inFlight = new Set<Promise<unknown>>();
  let stopped: ApiError | undefined;

  const send = (files: ImportFile[], at: readonly number[]) => {
    const call = api.call("results.import", { body: { ...body, files } }).then(
      (answer) => {
        place(at, answer.files);
        progressed(files.length);
      },
      (e: unknown) => {
        const error = e instanceof ApiError ? e : new ApiError({ status: 0, responseType: undefined, message: String(e) });
        if (error.status === 401 || error.status === 403) stopped ??= error;
        place(
          at,
          files.map((f) => refused(f.name, `not sent: ${error.message}`)),
        );
        progressed(files.length);
      },
    );
    const settled: Promise<unknown> = call.then(() => void inFlight.delete(settled));
    inFlight.add(settled);
  };
  const refuse = (index: number, name: string, reason: string) => {
    reports[index] = [refused(name, reason)];
    progressed(1);
  };

  let batch: ImportFile[] = [];
  let batchAt: number[] = [];
  let batchChars = 0;
  for (const [index, source] of sources.entries()) {
    if (stopped) break;
    let bytes: Uint8Array;
    try {
      bytes = typeof source.bytes === "function" ? await source.bytes() : source.bytes;
    } catch (e) {
      refuse(index, source.name, `cannot read (${e instanceof Error ? e.message : String(e)})`);
      continue;
    }
    if (bytes.length > IMPORT_BATCH_CHARS) {
      refuse(index, source.name, `too large for one upload (${(bytes.length / 1e6).toFixed(1)} MB; split it below 3 MB)`);
      continue;
    }
    const file = toImportFile(source.name, bytes);
    const size = file.content.length;
    if (batch.length >= IMPORT_FILES_MAX || (batch.length > 0 && batchChars + size > IMPORT_BATCH_CHARS)) {
      send(batch, batchAt);
      batch = [];
      batchAt = [];
      batchChars = 0;
      while (inFlight.size >= IN_FLIGHT) await Promise.race(inFlight);
    }
    batch.push(file);
    batchAt.push(index);
    batchChars += size;
  }
  if (batch.length > 0 && !stopped) send(batch, batchAt);
  await Promise.all(inFlight);
  if (stopped) throw stopped;
  const files = reports.flat();
  return { dryRun: options.dryRun, files };
}

/**
 * A visualFields CSV's patients: lines "csv id,unique id" (as `isopter import --csv-patients`), blank lines and lines
 * starting with # skipped, values trimmed and unquoted (a header line maps nothing that is looked up). Answers the map,
 * or the first line that is not two values.
 */
export function parseCsvPatients(text: string): { readonly map: Record<string, string> } | { readonly badLine: number } {
  const map: Record<string, string> = {};
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  for (const [i, line] of lines.entries()) {
    if (line.trim() === "" || line.startsWith("#")) continue;
    const [id, uniqueId, ...rest] = line.split(",").map((c) => c.trim().replace(/^"|"$/g, ""));
    if (!id || !uniqueId || rest.length > 0) return { badLine: i + 1 };
    map[id] = uniqueId;
  }
  return { map };
}
