import { Role } from "../enums.ts";
import { ImportBodySchema, ImportReportSchema } from "../import.ts";
import { commonErrors, endpoint } from "./endpoint.ts";

// Importing results from other perimeters and systems (issue 29; our design): managers only, as the web's "Import
// results" and `isopter import` offer it.

export const resultsImport = endpoint({
  name: "results.import",
  method: "POST",
  path: "results/import",
  body: ImportBodySchema,
  response: ImportReportSchema,
  errors: [...commonErrors, "forbidden", "not_found"],
  auth: "bearer",
  roles: [Role.Manager],
  carriesAccessToken: true,
  source: "our design",
  ourDesign:
    "files of fields taken elsewhere (DICOM OPV, FHIR Bundle, visualFields CSV) matched to patients and stored, one transaction per file; dryRun says what would happen",
});
