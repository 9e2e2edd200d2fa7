import { claimsOf, type SomeHandlers } from "../http/handler.ts";
import { invalid, notFound } from "../http/failure.ts";
import { isTimeZone } from "../../../core/model/clinic-time.ts";
import { defaultPatientIdSystem } from "../../../adapters/interchange/identifier-systems.ts";
import { importedKeys, importFiles, type ImportTarget } from "../import/import-file.ts";
import { readImportFile } from "../import/read-file.ts";
import { getPatient } from "../store/patients.ts";
import { nowIso } from "./write.ts";

// results/import (issue 29): the call's files read, then matched and stored one after the other, each all or nothing
// (import/import-file.ts), so a folder's report comes back in the order it was sent and a bad file stops nothing else.
export const importHandlers: SomeHandlers<"results.import"> = {
  "results.import": async (call) => {
    const { organisationId } = claimsOf(call);
    const { files, dryRun, patientId = null, csvPatients, timeZone = "UTC", issuers = [] } = call.body;
    if (!isTimeZone(timeZone)) throw invalid("body.timeZone", `${timeZone} is not a time zone (an IANA name such as Europe/Berlin)`);
    if (patientId !== null && !(await getPatient(call.ctx.db, organisationId, patientId))) throw notFound("Patient");
    const organisation = await call.ctx.db.query<{ name: string }>("select name from organisations where id = $1", [organisationId]);
    const now = nowIso(call.ctx);
    // The organisation's own issuers of patient IDs: its name (DICOM IssuerOfPatientID as Isopter writes it), the FHIR
    // identifier system its exports name, and any the importer lists (the clinic's hospital number system).
    const ownIssuers = [...organisation.map((o) => o.name), defaultPatientIdSystem(organisationId), ...issuers];
    const target: ImportTarget = { organisationId, ownIssuers, patientId, dryRun, now };
    const uniqueIdOf = (csvId: string) => (csvPatients ? (csvPatients[csvId] ?? null) : csvId);
    const read = files.map((file) => readImportFile(file, now, timeZone, uniqueIdOf));
    const keys = read.flatMap((r) => (r.reading.ok ? r.reading.fields.map((f) => f.result.source.key) : []));
    const known = await importedKeys(call.ctx.db, organisationId, keys);
    const reports = await importFiles(
      call.ctx,
      target,
      files.map((file, i) => ({ name: file.name, read: read[i]! })),
      known,
    );
    return { data: { dryRun, files: reports } };
  },
};
