import { defaultPatientIdSystem } from "../../../adapters/interchange/identifier-systems.ts";
import { claimsOf, type SomeHandlers } from "../http/handler.ts";
import { Failure, notFound } from "../http/failure.ts";
import { dicomSettingsOf } from "../dicom/settings.ts";
import { PacsUnavailable } from "../pacs/association.ts";
import { fetchPriors, MissingStorePort, TooManyInstances } from "../pacs/fetch.ts";
import { patientIdProblem } from "../pacs/query.ts";
import { getPatient } from "../store/patients.ts";
import { nowIso } from "./write.ts";

// pacs/fetch (issue 29 §3): the patient's priors from the organisation's PACS, imported as on the patient's page.
// A PACS that is down, refuses the association or a request, or takes too long is 503 `unavailable`, its message
// naming the PACS's AE title, host and port and what to check; none set is not_found, naming the settings.
export const pacsHandlers: SomeHandlers<"pacs.fetch"> = {
  "pacs.fetch": async (call) => {
    const { organisationId } = claimsOf(call);
    const { patientId, dryRun } = call.body;
    const patient = await getPatient(call.ctx.db, organisationId, patientId);
    if (!patient) throw notFound("Patient", "body.patientId");
    const { pacs } = await dicomSettingsOf(call.ctx.db, organisationId);
    if (!pacs) throw new Failure("not_found", "No PACS is set for the organisation: set one in the DICOM settings");
    const problem = patientIdProblem(patient.uniqueId);
    if (problem)
      throw new Failure(
        "validation_error",
        `The patient's ID "${patient.uniqueId}" cannot be looked up in the PACS: ${problem}`,
        "body.patientId",
      );
    const organisation = await call.ctx.db.query<{ name: string }>("select name from organisations where id = $1", [organisationId]);
    try {
      const report = await fetchPriors(
        call.ctx,
        {
          organisationId,
          // As results/import takes them: the organisation's name and its exports' identifier system.
          ownIssuers: [...organisation.map((o) => o.name), defaultPatientIdSystem(organisationId)],
          patient,
          dryRun,
          now: nowIso(call.ctx),
          timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
        },
        pacs,
      );
      return { data: report };
    } catch (e) {
      if (e instanceof PacsUnavailable) throw new Failure("unavailable", `${e.message.charAt(0).toUpperCase()}${e.message.slice(1)}`);
      if (e instanceof MissingStorePort) throw new Failure("validation_error", e.message, "pacs.storePort");
      if (e instanceof TooManyInstances) throw new Failure("payload_too_large", e.message);
      throw e;
    }
  },
};
