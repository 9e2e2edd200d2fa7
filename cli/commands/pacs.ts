import type { Command } from "commander";
import type { PacsFetchReport } from "../../core/model/dicom-network.ts";
import { ApiError } from "../../core/model/contract/errors.ts";
import type { Patient } from "../../core/model/patient.ts";
import { defineCommand, sharedOptions } from "../command.ts";
import { CliError, ExitCode } from "../exit-codes.ts";
import type { CliIo } from "../io.ts";
import { openSession, type Session } from "../session.ts";
import { formatFileReport } from "./import.ts";

// isopter pacs fetch --patient ID [--dry-run]: the patient's prior fields from the organisation's PACS (issue 29 §3),
// through pacs/fetch: the server queries the PACS (C-FIND for OPV), retrieves what it has not imported (C-GET, or
// C-MOVE to its own storage SCP, as the DICOM settings say) and imports it as `isopter import --patient` does. The
// report is `isopter import`'s, one line per instance, then "N found in the PACS, X imported, Y already here".
// --patient takes Isopter's patient id, or else the patient's unique ID (their Patient ID in the PACS): a patient
// whose id is not known is looked up by that. A PACS that is down or refuses exits 4 as an unreachable server does;
// any instance refused exits 1, as `isopter import` does.

/** The patient whose unique ID is exactly `uniqueId` (patient/search matches names and unique IDs in part). */
async function byUniqueId(session: Session, uniqueId: string): Promise<Patient | null> {
  for (let page = 0; page < 20; page++) {
    const found = await session.api.call("patient.search", { body: { filter: { name: uniqueId, birthdate: null }, page, quantity: 100 } });
    const exact = found.entries.find((p) => p.uniqueId === uniqueId);
    if (exact) return exact;
    if (found.remaining <= 0) return null;
  }
  return null;
}

async function fetchFor(session: Session, id: string, dryRun: boolean): Promise<PacsFetchReport> {
  const call = (patientId: string) => session.api.call("pacs.fetch", { body: { patientId, dryRun } });
  try {
    try {
      return await call(id);
    } catch (e) {
      if (!(e instanceof ApiError && e.isType("not_found") && e.field === "body.patientId")) throw e;
      const patient = await byUniqueId(session, id);
      if (!patient) throw new CliError(ExitCode.Failure, `no patient has the id or unique ID ${id}`);
      return await call(patient.id);
    }
  } catch (e) {
    // The server answers for the PACS: it was not reached, refused, or took too long.
    if (e instanceof ApiError && e.status === 503 && e.isType("unavailable")) throw new CliError(ExitCode.Unreachable, e.message);
    throw e;
  }
}

export function registerPacs(program: Command, io: CliIo): void {
  const pacs = program.command("pacs").description("the organisation's PACS: fetch a patient's prior fields (managers)");
  defineCommand(pacs, "fetch", "fetch a patient's prior fields (DICOM OPV) from the PACS and import them")
    .requiredOption("--patient <id>", "Isopter's patient id, or the patient's unique ID (their Patient ID in the PACS)")
    .option("--dry-run", "say per instance what the import would do (it still retrieves them) and write nothing", false)
    .addHelpText(
      "after",
      `
The PACS, its AE titles and the way of retrieval (C-GET, or C-MOVE to Isopter's store port) are the organisation's
DICOM settings. The PACS is asked for the OPV instances under the patient's unique ID; those imported before stay in
the PACS and count as already here; the rest are retrieved and imported as \`isopter import --patient\` does (a field of
another patient is refused). Exit code 4 when the PACS cannot be reached or refuses, 1 when any instance was refused.`,
    )
    .action(async (o: { patient: string; dryRun: boolean }, cmd: Command) => {
      const shared = sharedOptions(cmd);
      const session = openSession(shared, io);
      const report = await fetchFor(session, o.patient, o.dryRun);
      const files = report.imported.files;
      const count = (a: (typeof files)[number]["action"]) => files.filter((f) => f.action === a).length;
      const summary = { found: report.found, imported: count("imported"), duplicates: count("duplicate"), refused: count("refused") };
      if (shared.json) io.stdout.write(JSON.stringify({ dryRun: o.dryRun, ...summary, report }) + "\n");
      else {
        for (const f of files) io.stdout.write(formatFileReport(f, o.dryRun) + "\n");
        io.stdout.write(
          `${summary.found} found in the PACS, ${summary.imported} ${o.dryRun ? "would be imported" : "imported"}, ` +
            `${summary.duplicates} already here${summary.refused > 0 ? `, ${summary.refused} refused` : ""}\n`,
        );
      }
      if (summary.refused > 0)
        throw new CliError(ExitCode.Failure, `${summary.refused} of ${summary.found} instances refused (named above)`);
    });
}
