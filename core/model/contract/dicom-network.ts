import { Schema } from "effect";
import { DicomSettingsSchema, EchoReportSchema, PacsFetchReportSchema, WorklistReportSchema } from "../dicom-network.ts";
import { Role } from "../enums.ts";
import { IdSchema } from "../ids.ts";
import { commonErrors, endpoint } from "./endpoint.ts";

// The clinic's DICOM network (issue 29; our design): its worklist provider and PACS, the worklist queried on demand,
// priors fetched from the PACS, and a verification (C-ECHO) of either. Managers only.

export const dicomSettings = endpoint({
  name: "dicom.settings",
  method: "GET",
  path: "dicom/settings",
  response: DicomSettingsSchema,
  errors: [...commonErrors, "forbidden"],
  auth: "bearer",
  roles: [Role.Manager],
  carriesAccessToken: true,
  source: "our design",
  ourDesign: "the organisation's worklist provider and PACS",
});

export const dicomSettingsUpdate = endpoint({
  name: "dicom.settingsUpdate",
  method: "PUT",
  path: "dicom/settings",
  body: DicomSettingsSchema,
  response: DicomSettingsSchema,
  errors: [...commonErrors, "forbidden", "not_found"],
  auth: "bearer",
  roles: [Role.Manager],
  carriesAccessToken: true,
  source: "our design",
  ourDesign:
    "sets the organisation's worklist provider and PACS (AE titles, hosts and ports checked); not_found names a headset that is not the organisation's",
});

export const dicomEcho = endpoint({
  name: "dicom.echo",
  method: "POST",
  path: "dicom/echo",
  body: Schema.Struct({ peer: Schema.Literals(["worklist", "pacs"]) }),
  response: EchoReportSchema,
  errors: [...commonErrors, "forbidden", "not_found"],
  auth: "bearer",
  roles: [Role.Manager],
  carriesAccessToken: true,
  source: "our design",
  ourDesign: "verification (C-ECHO) of the worklist provider or the PACS as set; the answer says whether it answered and how",
});

export const worklistQuery = endpoint({
  name: "worklist.query",
  method: "POST",
  path: "worklist/query",
  body: Schema.Struct({ dryRun: Schema.Boolean }),
  response: WorklistReportSchema,
  errors: [...commonErrors, "forbidden", "not_found", "unavailable"],
  auth: "bearer",
  roles: [Role.Manager],
  carriesAccessToken: true,
  source: "our design",
  ourDesign:
    "queries the worklist provider now (C-FIND for the station's scheduled steps) and queues each new step; a step seen before is not queued again",
});

export const pacsFetch = endpoint({
  name: "pacs.fetch",
  method: "POST",
  path: "pacs/fetch",
  body: Schema.Struct({ patientId: IdSchema, dryRun: Schema.Boolean }),
  response: PacsFetchReportSchema,
  errors: [...commonErrors, "forbidden", "not_found", "unavailable"],
  auth: "bearer",
  roles: [Role.Manager],
  carriesAccessToken: true,
  source: "our design",
  ourDesign:
    "finds the patient's OPV instances in the PACS (C-FIND), retrieves them (C-GET or C-MOVE) and imports them as results/import does",
});
