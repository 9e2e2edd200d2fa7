import { readdir, readFile, stat } from "node:fs/promises";
import { isUtf8 } from "node:buffer";
import { join, relative, resolve } from "node:path";
import type { Command } from "commander";
import { eyeCodes, patternLabel } from "../../core/model/enums.ts";
import { IMPORT_FILES_MAX, type ImportFile, type ImportFileReport, type ImportItem } from "../../core/model/import.ts";
import { isTimeZone } from "../../core/model/clinic-time.ts";
import { localTimeZone } from "../export/context.ts";
import { defineCommand, sharedOptions } from "../command.ts";
import { badArguments, CliError, ExitCode } from "../exit-codes.ts";
import type { CliIo } from "../io.ts";
import { openSession } from "../session.ts";

// isopter import FILE|DIR... [--dry-run] [--patient ID] [--csv-patients FILE]: fields taken elsewhere (DICOM OPV from
// any perimeter, a FHIR Bundle, a visualFields CSV) into the organisation, through results/import. Folders are walked;
// files go in batches (each file one transaction on the server), a few batches in flight while the next are read.
// One line per file, then a summary; exit 1 when any file was refused (the others are imported all the same).

/** What one call may carry: the server takes bodies up to 5 MB, and base64 makes 4 bytes of 3. */
const BATCH_BYTES = 3_000_000;
const IN_FLIGHT = 2;
const collect = (value: string, previous: string[]) => [...previous, value];

interface Pending {
  readonly path: string;
  readonly file?: ImportFile;
  readonly unreadable?: string;
}

/** Every file under the paths, in a stable order (hidden files and DICOMDIR indexes left out). */
async function filesUnder(paths: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  const walk = async (path: string): Promise<void> => {
    const s = await stat(path);
    if (!s.isDirectory()) return void out.push(path);
    for (const name of (await readdir(path)).sort())
      if (!name.startsWith(".") && name.toUpperCase() !== "DICOMDIR") await walk(join(path, name));
  };
  for (const p of paths)
    await walk(p).catch((e: NodeJS.ErrnoException) => {
      throw new CliError(ExitCode.Failure, `${p}: cannot read (${e.code ?? e.message})`);
    });
  return out;
}

async function readForUpload(path: string, name: string): Promise<Pending> {
  try {
    const bytes = await readFile(path);
    const dicom = bytes.length > 132 && bytes.toString("latin1", 128, 132) === "DICM";
    if (bytes.length > BATCH_BYTES)
      return { path, unreadable: `too large for one upload (${(bytes.length / 1e6).toFixed(1)} MB; split it below 3 MB)` };
    const text = !dicom && isUtf8(bytes);
    return { path, file: { name, encoding: text ? "utf8" : "base64", content: bytes.toString(text ? "utf8" : "base64") } };
  } catch (e) {
    return { path, unreadable: `cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})` };
  }
}

/** "A" -> uniqueId map from a two-column CSV (csv id, unique id); a header line naming neither is skipped. */
async function readMapping(file: string): Promise<Record<string, string>> {
  const text = await readFile(file, "utf8").catch((e: NodeJS.ErrnoException) => {
    throw badArguments(`--csv-patients ${file}: cannot read (${e.code ?? e.message})`);
  });
  const map: Record<string, string> = {};
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === "" || line.startsWith("#")) return;
    const [id, uniqueId, ...rest] = line.split(",").map((c) => c.trim().replace(/^"|"$/g, ""));
    if (!id || !uniqueId || rest.length > 0) throw badArguments(`--csv-patients ${file}: line ${i + 1}: expected "csv id,unique id"`);
    map[id] = uniqueId;
  });
  return map;
}

const describeItem = (i: ImportItem, dryRun: boolean): string => {
  const what = [
    i.pattern !== null ? patternLabel[i.pattern] : null,
    i.eye !== null ? eyeCodes[i.eye] : null,
    i.takenAt?.slice(0, 10),
    i.device,
  ]
    .filter(Boolean)
    .join(", ");
  if (i.action === "refused") return `${i.item}: refused: ${i.reason}`;
  if (i.action === "duplicate") return `${i.item}: duplicate (${i.reason})`;
  const p = i.patient!;
  const how =
    p.match === "created"
      ? dryRun
        ? "would be created"
        : "created"
      : `matched by ${p.match === "id" ? "patient ID" : "name and birth date"}`;
  return `${i.item}: ${dryRun ? "would import" : "imported"} ${what} -> ${p.name} (${p.uniqueId}, ${how})`;
};

export function formatFileReport(r: ImportFileReport, dryRun: boolean): string {
  const head =
    r.action === "refused"
      ? `${r.file}: refused: ${r.reason}`
      : `${r.file}: ${r.action === "duplicate" ? "duplicate" : dryRun ? "would import" : "imported"}`;
  return [head, ...r.items.map((i) => `  ${describeItem(i, dryRun)}`)].join("\n");
}

export function registerImport(program: Command, io: CliIo): void {
  defineCommand(
    program,
    "import <paths...>",
    "import fields from other perimeters and systems: DICOM OPV, FHIR Bundles, visualFields CSV (managers)",
  )
    .option("--dry-run", "say per file what would happen (imported, duplicate, refused and why) and write nothing", false)
    .option("--patient <id>", "every field must be this patient's (Isopter's patient id)")
    .option(
      "--issuer <issuer>",
      "an issuer of patient IDs that is the clinic's own (repeatable; its name and its exports' system count already)",
      collect,
      [],
    )
    .option("--time-zone <zone>", "where files without an offset from UTC were taken (IANA name; default this system's zone)")
    .option("--csv-patients <file>", "visualFields CSV: map its id column to patients' unique ids (lines 'csv id,unique id')")
    .addHelpText(
      "after",
      `
Patients are matched by patient ID (when the file's issuer is none or the organisation), else by name and birth date;
a patient is created only when nothing matches. A field already imported (the same SOP Instance UID, FHIR identifier,
or CSV id/eye/date/time) is a duplicate and changes nothing. Each file is one transaction: a file with a refused field
is not written at all. Exit code 1 when any file was refused.`,
    )
    .action(
      async (
        paths: string[],
        o: { dryRun: boolean; patient?: string; csvPatients?: string; timeZone?: string; issuer: string[] },
        cmd: Command,
      ) => {
        const timeZone = o.timeZone ?? localTimeZone();
        if (!isTimeZone(timeZone))
          throw badArguments(`--time-zone ${timeZone}: not a time zone this system knows (an IANA name such as Europe/Berlin)`);
        const shared = sharedOptions(cmd);
        const csvPatients = o.csvPatients ? await readMapping(resolve(io.cwd, o.csvPatients)) : undefined;
        const given = paths.map((p) => resolve(io.cwd, p));
        const files = await filesUnder(given);
        if (files.length === 0) throw badArguments("no files under the paths given");
        const session = openSession(shared, io);
        // Files are named relative to the one folder given, else to the working directory.
        const base = given.length === 1 && (await stat(given[0]!)).isDirectory() ? given[0]! : io.cwd;
        const reports: ImportFileReport[] = [];
        const inFlight = new Set<Promise<void>>();
        let batch: ImportFile[] = [];
        let batchBytes = 0;
        const ordered: Array<Promise<ImportFileReport[]>> = [];
        const send = (files: ImportFile[]) => {
          const call = session.api
            .call("results.import", {
              body: {
                files,
                dryRun: o.dryRun,
                timeZone,
                ...(o.patient ? { patientId: o.patient } : {}),
                ...(csvPatients ? { csvPatients } : {}),
              },
            })
            .then((r) => [...r.files]);
          ordered.push(call);
          const done = call.then(
            () => void inFlight.delete(done),
            () => void inFlight.delete(done),
          );
          inFlight.add(done);
        };
        for (const path of files) {
          const pending = await readForUpload(path, relative(base, path) || path);
          if (!pending.file) {
            ordered.push(Promise.resolve([{ file: path, format: null, action: "refused", reason: pending.unreadable!, items: [] }]));
            continue;
          }
          const size = pending.file.content.length;
          if (batch.length >= IMPORT_FILES_MAX || (batch.length > 0 && batchBytes + size > BATCH_BYTES)) {
            send(batch);
            batch = [];
            batchBytes = 0;
            if (inFlight.size >= IN_FLIGHT) await Promise.race(inFlight);
          }
          batch.push(pending.file);
          batchBytes += size;
        }
        if (batch.length) send(batch);
        for (const call of ordered) {
          for (const r of await call) {
            reports.push(r);
            if (!shared.json) io.stdout.write(formatFileReport(r, o.dryRun) + "\n");
          }
        }
        const count = (a: ImportFileReport["action"]) => reports.filter((r) => r.action === a).length;
        const fields = reports.flatMap((r) => (r.action === "imported" ? r.items.filter((i) => i.action === "imported") : []));
        const created = new Set(fields.filter((i) => i.patient?.match === "created").map((i) => `${i.patient!.uniqueId}`)).size;
        const summary = {
          dryRun: o.dryRun,
          files: reports.length,
          imported: count("imported"),
          duplicates: count("duplicate"),
          refused: count("refused"),
          fields: fields.length,
          patientsCreated: created,
        };
        if (shared.json) io.stdout.write(JSON.stringify({ ...summary, reports }) + "\n");
        else
          io.stdout.write(
            `${summary.files} files: ${summary.imported} ${o.dryRun ? "would be imported" : "imported"} (${summary.fields} fields, ${created} ${created === 1 ? "patient" : "patients"} ${o.dryRun ? "to create" : "created"}), ${summary.duplicates} duplicates, ${summary.refused} refused\n`,
          );
        if (summary.refused > 0) throw new CliError(ExitCode.Failure, `${summary.refused} of ${summary.files} files refused (named above)`);
      },
    );
}
