import { Schema } from "effect";
import { EyeSchema, PatternSchema } from "../enums.ts";
import { ExaminationSchema } from "../examination.ts";
import { DeviceSnSchema, IdSchema, IsoDateSchema } from "../ids.ts";
import { MeasurementBodySchema, MeasurementRegisterBodySchema, MeasurementSchema } from "../measurement.ts";
import { MeasurementResultSchema } from "../measurement-result.ts";
import { PatientSchema } from "../patient.ts";
import { commonErrors, endpoint } from "./endpoint.ts";
import { Deleted, IdQuery, PatientIdQuery } from "./shared.ts";

// Perimetry (measurement) calls: scheduling §7 "Perimetry" and accounts §7.

export const perimetryGet = endpoint({
  name: "perimetry.get",
  method: "GET",
  path: "perimetry",
  query: IdQuery,
  response: MeasurementSchema,
  errors: [...commonErrors, "not_found"],
  auth: "bearer",
  carriesAccessToken: true,
  source: "both §7",
});

export const perimetryAll = endpoint({
  name: "perimetry.all",
  method: "GET",
  path: "perimetry/all",
  query: PatientIdQuery,
  response: Schema.Array(MeasurementSchema),
  errors: commonErrors,
  auth: "bearer",
  carriesAccessToken: true,
  source: "both §7",
});

/** Largest page perimetry.page answers. */
export const PERIMETRY_PAGE_MAX = 1000;

/** What perimetry.page filters on: each null means "any". Dates are inclusive UTC days of result.takenAt. */
export const PerimetryPageFilterSchema = Schema.Struct({
  from: Schema.NullOr(IsoDateSchema),
  to: Schema.NullOr(IsoDateSchema),
  pattern: Schema.NullOr(PatternSchema),
  eye: Schema.NullOr(EyeSchema),
});
export type PerimetryPageFilter = Schema.Schema.Type<typeof PerimetryPageFilterSchema>;

export const PerimetryPageBodySchema = Schema.Struct({
  filter: PerimetryPageFilterSchema,
  /** null for the first page, then the previous page's `next` (an opaque cursor). */
  after: Schema.NullOr(Schema.String),
  /** Results per page, 1..PERIMETRY_PAGE_MAX. */
  quantity: Schema.Int,
});
export type PerimetryPageBody = Schema.Schema.Type<typeof PerimetryPageBodySchema>;

export const PerimetryPageSchema = Schema.Struct({
  /**
   * Measurements with a result, by patient id, then oldest takenAt first (then id). With `examinations`, one ordered
   * walk: the page holds the first `quantity` results of both kinds in that order, split by kind into the two arrays.
   */
  entries: Schema.Array(MeasurementSchema),
  /**
   * The taken perimetry examinations (appointment variant) of the page, in the same order as `entries`. Absent from a
   * backend that reads measurements only (and then every result of the page is in `entries`).
   */
  examinations: Schema.optionalKey(Schema.Array(ExaminationSchema)),
  /** The patient of every entry and examination, each once, in the results' order. */
  patients: Schema.Array(PatientSchema),
  /** Cursor of the next page (send it as `after`), or null when this page is the last. */
  next: Schema.NullOr(Schema.String),
  /** On the first page (after: null) only: how many results and patients the whole selection has; else null. */
  total: Schema.NullOr(Schema.Struct({ results: Schema.Int, patients: Schema.Int })),
});
export type PerimetryPage = Schema.Schema.Type<typeof PerimetryPageSchema>;

export const perimetryPage = endpoint({
  name: "perimetry.page",
  method: "POST",
  path: "perimetry/page",
  body: PerimetryPageBodySchema,
  response: PerimetryPageSchema,
  errors: commonErrors,
  auth: "bearer",
  carriesAccessToken: true,
  source: "our design",
  ourDesign:
    "the seeds read results patient by patient (perimetry/all); exports of a whole organisation need one call across " +
    "patients: the organisation's results (measurements with a result and taken perimetry examinations, outside the bin, " +
    "of patients and appointments outside the bin) " +
    "in pages ordered by patient id, then takenAt, then id, continued with an opaque cursor (keyset paging), optionally " +
    "filtered by UTC test day, pattern and eye of the result. The examinations come in their own array (optional: older " +
    "clients read entries as before). A backend without it answers 404; clients then fall back to patient/search, " +
    "perimetry/all and examination/all",
});

/** "Recent: result present (the five latest)" (accounts seed §4) for the measurement variant's home page. */
export const RECENT_RESULTS_LIMIT = 5;

export const perimetryRecent = endpoint({
  name: "perimetry.recent",
  method: "GET",
  path: "perimetry/recent",
  response: Schema.Array(MeasurementSchema),
  errors: commonErrors,
  auth: "bearer",
  carriesAccessToken: true,
  source: "our design",
  ourDesign:
    "the seeds list recent tests on home but give no call across patients for the measurement variant: the " +
    "organisation's five latest measurements with a result (newest takenAt first), leaving out trashed ones and those of trashed patients",
});

export const perimetryRegister = endpoint({
  name: "perimetry.register",
  method: "POST",
  path: "perimetry/register",
  body: MeasurementRegisterBodySchema,
  response: Schema.Array(MeasurementSchema),
  errors: [...commonErrors, "not_found"],
  auth: "bearer",
  carriesAccessToken: true,
  source: "scheduling §7",
  ourDesign:
    "answer (not shown in the seeds): the created measurements in queue order; eye Both creates a right and a left " +
    "measurement paired through isFollowingEye. not_found when the patient or device does not exist. The optional " +
    "cloned (true from the form's clone mode) is stored as the measurements' cloned flag",
});

/** PATCH perimetry bodies: the full body, notes only ("a body with only notes updates notes"), or the result flags. */
export const MeasurementNotesBodySchema = Schema.Struct({ notes: Schema.String });
export const MeasurementFlagsBodySchema = Schema.Struct({
  reliable: Schema.optionalKey(Schema.Boolean),
  baseline: Schema.optionalKey(Schema.Boolean),
});
export const MeasurementPatchBodySchema = Schema.Union([MeasurementBodySchema, MeasurementNotesBodySchema, MeasurementFlagsBodySchema]);
export type MeasurementPatchBody = Schema.Schema.Type<typeof MeasurementPatchBodySchema>;

export const perimetryUpdate = endpoint({
  name: "perimetry.update",
  method: "PATCH",
  path: "perimetry",
  query: IdQuery,
  body: MeasurementPatchBodySchema,
  response: MeasurementSchema,
  errors: [...commonErrors, "not_found"],
  auth: "bearer",
  carriesAccessToken: true,
  source: "both §7",
  ourDesign: "answer: the updated measurement; the flags-only body {reliable?, baseline?} is ours",
});

export const perimetryRestore = endpoint({
  name: "perimetry.restore",
  method: "PATCH",
  path: "perimetry/restore",
  query: IdQuery,
  response: MeasurementSchema,
  errors: [...commonErrors, "not_found"],
  auth: "bearer",
  carriesAccessToken: true,
  source: "both §7",
  ourDesign: "answer: the restored measurement",
});

export const perimetryTrash = endpoint({
  name: "perimetry.trash",
  method: "DELETE",
  path: "perimetry/trash",
  query: IdQuery,
  response: MeasurementSchema,
  errors: [...commonErrors, "not_found"],
  auth: "bearer",
  carriesAccessToken: true,
  source: "both §7",
  ourDesign: "answer: the trashed measurement",
});

export const perimetryDelete = endpoint({
  name: "perimetry.delete",
  method: "DELETE",
  path: "perimetry/delete",
  query: IdQuery,
  response: Deleted,
  errors: [...commonErrors, "not_found"],
  auth: "bearer",
  carriesAccessToken: true,
  source: "both §7",
  ourDesign: "permanent; answer {id}",
});

export const perimetryAllTrashed = endpoint({
  name: "perimetry.allTrashed",
  method: "GET",
  path: "perimetry/all_trashed",
  response: Schema.Array(MeasurementSchema),
  errors: commonErrors,
  auth: "bearer",
  carriesAccessToken: true,
  source: "both §7",
});

/** Upload of a result taken off-line (stand-alone mode: "uploads results when back on the network"). */
export const PerimetryUploadBodySchema = Schema.Struct({
  deviceSn: DeviceSnSchema,
  /** The queued measurement the result belongs to, or null for a stand-alone repetition. */
  measurementId: Schema.NullOr(IdSchema),
  /** The stand-alone configuration it was taken with (creates a new measurement from it). */
  standaloneId: Schema.NullOr(IdSchema),
  result: MeasurementResultSchema,
});
export type PerimetryUploadBody = Schema.Schema.Type<typeof PerimetryUploadBodySchema>;

export const perimetryUpload = endpoint({
  name: "perimetry.upload",
  method: "POST",
  path: "perimetry/upload",
  body: PerimetryUploadBodySchema,
  response: MeasurementSchema,
  errors: [...commonErrors, "not_found", "conflict"],
  auth: "bearer",
  carriesAccessToken: true,
  source: "scheduling §7",
  ourDesign:
    "declared, use not shown: uploads a result taken off-line; with measurementId it completes that measurement " +
    "(conflict if it already has a result), with standaloneId it creates a measurement from the stand-alone config",
});
