import { claimsOf, type SomeHandlers } from "../http/handler.ts";
import { invalid, notFound } from "../http/failure.ts";
import { isTimeZone } from "../../../core/model/clinic-time.ts";
import { defaultPatientIdSystem } from "../../../adapters/interchange/identifier-systems.ts";
import { importedKeys, importFiles, type ImportTarget, knownInstances } from "../import/import-file.ts";
import { dicomInstanceUid, readImportFile } from "../import/read-file.ts";
import { getPatient } from "../store/patients.ts";
import { nowIso } from "./write.ts";

// results/import (issue 29): the call's files read, matched and stored, each all or nothing (import/import-file.ts); the
// report comes back in the order the files were sent, and a bad file stops nothing else.
export const importHandlers: SomeHandlers<"results.import"> = {
  "results.import": async (call) => {
    const { organisationId } = claimsOf(call);
    // Files that carry no offset from UTC were taken on the clinic's wall clock: the importer's zone, else the server's.
    const {
      files,
      dryRun,
      patientId = null,
      csvPatients,
      timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone,
      issuers = [],
    } = call.body;
    if (!isTimeZone(timeZone)) throw invalid("body.timeZone", `${timeZone} is not a time zone (an IANA name such as Europe/Berlin)`);
    if (patientId !== null && !(await getPatient(call.ctx.db, organisationId, patientId))) throw notFound("Patient", "body.patientId");
    const organisation = await call.ctx.db.query<{ name: string }>("select name from organisations where id = $1", [organisationId]);
    const now = nowIso(call.ctx);
    // The organisation's own issuers of patient IDs: its name (DICOM IssuerOfPatientID as Isopter writes it), the FHIR
    // identifier system its exports name, and any the importer lists (the clinic's hospital number system).
    const ownIssuers = [...organisation.map((o) => o.name), defaultPatientIdSystem(organisationId), ...issuers];
    const target: ImportTarget = { organisationId, ownIssuers, patientId, dryRun, now };
    const uniqueIdOf = (csvId: string) => (csvPatients ? (csvPatients[csvId] ?? null) : csvId);
    // A DICOM file imported before is known by its head; the others are read whole.
    const seen = await knownInstances(
      call.ctx.db,
      organisationId,
      files.map((f) => ({ name: f.name, uid: dicomInstanceUid(f) })),
    );
    const rest = files.flatMap((file, i) => (seen[i] ? [] : [{ name: file.name, read: readImportFile(file, now, timeZone, uniqueIdOf) }]));
    const keys = rest.flatMap((f) => (f.read.reading.ok ? f.read.reading.fields.map((x) => x.result.source.key) : []));
    const imported = await importFiles(call.ctx, target, rest, await importedKeys(call.ctx.db, organisationId, keys));
    let next = 0;
    return { data: { dryRun, files: seen.map((report) => report ?? imported[next++]!) } };
  },
};
