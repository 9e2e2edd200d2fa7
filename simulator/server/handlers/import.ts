import type { ImportFileReport } from "../../../core/model/import.ts";
import { claimsOf, type SomeHandlers } from "../http/handler.ts";
import { invalid, notFound } from "../http/failure.ts";
import { isTimeZone } from "../../../core/model/clinic-time.ts";
import { importFile, type ImportTarget } from "../import/import-file.ts";
import { readImportFile } from "../import/read-file.ts";
import { getPatient } from "../store/patients.ts";
import { nowIso } from "./write.ts";

// results/import (issue 29): each file read, matched and stored in its own transaction (import/import-file.ts), one
// after the other, so a folder's report comes back in the order it was sent and a bad file stops nothing else.
export const importHandlers: SomeHandlers<"results.import"> = {
  "results.import": async (call) => {
    const { organisationId } = claimsOf(call);
    const { files, dryRun, patientId = null, csvPatients, timeZone = "UTC" } = call.body;
    if (!isTimeZone(timeZone)) throw invalid("body.timeZone", `${timeZone} is not a time zone (an IANA name such as Europe/Berlin)`);
    if (patientId !== null && !(await getPatient(call.ctx.db, organisationId, patientId))) throw notFound("Patient");
    const organisation = await call.ctx.db.query<{ name: string }>("select name from organisations where id = $1", [organisationId]);
    const now = nowIso(call.ctx);
    const target: ImportTarget = { organisationId, ownIssuers: organisation.map((o) => o.name), patientId, dryRun, now };
    const uniqueIdOf = (csvId: string) => (csvPatients ? (csvPatients[csvId] ?? null) : csvId);
    const reports: ImportFileReport[] = [];
    for (const file of files) reports.push(await importFile(call.ctx, target, file.name, readImportFile(file, now, timeZone, uniqueIdOf)));
    return { data: { dryRun, files: reports } };
  },
};
