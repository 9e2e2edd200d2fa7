import { strategyShortName } from "../../../core/analytics/series-sources.ts";
import { decidePatient, type PatientCandidate } from "../../../core/import/patient-match.ts";
import type { ImportedField } from "../../../core/import/imported-field.ts";
import { Sex, patternLabel } from "../../../core/model/enums.ts";
import type { ImportFileReport, ImportItem, PatientMatch } from "../../../core/model/import.ts";
import { newMeasurement } from "../../../core/model/measurement.ts";
import type { MeasurementResult } from "../../../core/model/measurement-result.ts";
import { sourceDeviceName } from "../../../core/model/result-source.ts";
import { measurementConfigWith } from "../../../core/rules/defaults.ts";
import { validateTextInput } from "../../../core/rules/text-input.ts";
import type { ServerContext } from "../context.ts";
import type { Queryable } from "../db/database.ts";
import { write } from "../handlers/write.ts";
import { newId } from "../store/ids.ts";
import { insertMeasurement } from "../store/measurements.ts";
import { getPatient, insertPatient, patientColumns, toPatient } from "../store/patients.ts";
import type { ReadFile } from "./read-file.ts";
import { scoredResult } from "./scoring.ts";

// Files into the organisation (issue 29: "nothing is written by halves: one file is one transaction"): each field's key
// looked up (there already: duplicate), its patient matched or created (core/import/patient-match.ts), its result
// scored with Isopter's normals and stored as a measurement. A field refused refuses the whole file: it is rolled back
// and the report names every field and why. A dry run does all of it and rolls back, so it says exactly what the
// import would do.

export interface ImportTarget {
  readonly organisationId: string;
  /** The organisation's own issuers of patient IDs (its name): an ID from anyone else is not ours to match on. */
  readonly ownIssuers: readonly string[];
  /** Importing on a patient's page: every field must be this patient's. */
  readonly patientId: string | null;
  readonly dryRun: boolean;
  readonly now: string;
}

/** Thrown to roll a dry run's transaction back while keeping its reports. */
class RolledBack extends Error {
  constructor(readonly reports: ImportFileReport[]) {
    super("rolled back");
  }
}

/** The patient holding the ID (when it counts) and those born on the day, in one query: the decision's candidates. */
async function candidates(tx: Queryable, org: string, uniqueId: string | null, birthdate: string | null) {
  const rows = (
    await tx.query(`select ${patientColumns} from patients where organisation_id = $1 and (body->>'uniqueId' = $2 or birthdate = $3)`, [
      org,
      uniqueId ?? "",
      birthdate ?? "",
    ])
  ).map(toPatient);
  return {
    byId: uniqueId === null ? undefined : rows.find((p) => p.uniqueId === uniqueId),
    bornThen: birthdate === null ? [] : rows.filter((p) => p.birthdate === birthdate),
  };
}

const itemOf = (field: ImportedField, action: ImportItem["action"], reason: string | null): ImportItem => ({
  item: field.item,
  action,
  reason,
  patient: null,
  measurementId: null,
  takenAt: field.result.takenAt,
  eye: field.result.eye,
  pattern: field.result.pattern,
  device: [sourceDeviceName(field.result.source), field.result.source.strategyName && strategyShortName(field.result.source.strategyName)]
    .filter(Boolean)
    .join(" · "),
});

/** A unique id for a patient created from a file: the file's own where it is ours, else marked with its issuer. */
const newUniqueId = (field: ImportedField, ownIssuer: boolean): string => {
  const { id, issuer } = field.patient;
  if (id !== null && id.trim() !== "") return ownIssuer ? id.trim() : `${issuer}:${id.trim()}`;
  return `imported-${newId().slice(0, 8)}`;
};

async function importField(
  tx: Queryable,
  target: ImportTarget,
  field: ImportedField,
  created: Map<string, PatientCandidate>,
  keys: Map<string, string>,
): Promise<ImportItem> {
  const org = target.organisationId;
  const key = field.result.source.key;
  const existing = keys.get(key);
  if (existing !== undefined) return { ...itemOf(field, "duplicate", "imported before"), measurementId: existing };

  const identity = field.patient;
  const ownIssuer = identity.issuer === null || target.ownIssuers.some((o) => o.toLowerCase() === identity.issuer!.trim().toLowerCase());
  const { byId, bornThen } = await candidates(tx, org, identity.id !== null && ownIssuer ? identity.id.trim() : null, identity.birthdate);
  const decision = decidePatient(identity, target.ownIssuers, byId, bornThen);
  if (decision.kind === "refused") return itemOf(field, "refused", decision.reason);

  let patient: PatientCandidate;
  let match: PatientMatch;
  if (decision.kind === "matched") {
    patient = decision.patient;
    match = decision.by;
  } else {
    const uniqueId = newUniqueId(field, ownIssuer);
    const name = identity.name!.trim();
    const problem = validateTextInput(name) ?? validateTextInput(uniqueId);
    if (problem) return itemOf(field, "refused", `the patient's name or ID cannot be stored: ${problem.text}`);
    const id = newId();
    await insertPatient(
      tx,
      org,
      id,
      { name, uniqueId, gender: identity.sex ?? Sex.Other, lang: "en", birthdate: identity.birthdate! },
      target.now,
    );
    patient = (await getPatient(tx, org, id))!;
    created.set(patient.id, patient);
    match = "created";
  }
  const patientRef = { id: patient.id, name: patient.name, uniqueId: patient.uniqueId, match };
  if (target.patientId !== null && patient.id !== target.patientId)
    return { ...itemOf(field, "refused", `the field is ${patient.name}'s (${patient.uniqueId}), not this patient's`), patient: patientRef };

  const measurementId = newId();
  const result: MeasurementResult = scoredResult({ ...field.result, measurementId, patientId: patient.id }, patient.birthdate);
  const measurement = {
    ...newMeasurement(
      measurementConfigWith({
        patientId: patient.id,
        deviceSn: null,
        displayName: `${patternLabel[result.pattern]} ${result.source?.strategyName ?? ""}`.trim(),
        eye: result.eye,
        pattern: result.pattern,
        strategy: result.strategy,
        stimuliSize: result.stimulusSize,
        stimuliShowtime: result.stimuliShowtime,
        trackGaze: false,
      }),
      measurementId,
      target.now,
    ),
    result,
  };
  await insertMeasurement(tx, org, measurement, null);
  await tx.query(
    "insert into imported_results (organisation_id, source_key, measurement_id, format, file_name, imported_at) values ($1, $2, $3, $4, $5, $6)",
    [org, key, measurementId, field.result.source.format, field.result.source.fileName, target.now],
  );
  keys.set(key, measurementId);
  return { ...itemOf(field, "imported", null), patient: patientRef, measurementId };
}

/** An item as a rolled-back transaction leaves it: no measurement stored, no patient created. */
const unwritten = (i: ImportItem): ImportItem => ({
  ...i,
  measurementId: i.action === "imported" ? null : i.measurementId,
  patient: i.patient?.match === "created" ? { ...i.patient, id: null } : i.patient,
});

/** The file's report: refused if it could not be read or any field was refused; duplicate if every field was there. */
const fileAction = (items: readonly ImportItem[]): ImportFileReport["action"] =>
  items.some((i) => i.action === "refused")
    ? "refused"
    : items.length > 0 && items.every((i) => i.action === "duplicate")
      ? "duplicate"
      : "imported";

/** The measurements already imported under these keys (one query for a whole batch of files). */
export async function importedKeys(q: Queryable, organisationId: string, keys: readonly string[]): Promise<Map<string, string>> {
  if (keys.length === 0) return new Map();
  const rows = await q.query<{ source_key: string; measurement_id: string }>(
    "select source_key, measurement_id from imported_results where organisation_id = $1 and source_key = any($2)",
    [organisationId, keys],
  );
  return new Map(rows.map((r) => [r.source_key, r.measurement_id]));
}

/**
 * A file every field of which was imported before: its report without a transaction (a folder imported again is
 * mostly such files). Null when anything in it is new or refused: that goes through the transaction.
 */
export function duplicateReport(name: string, read: ReadFile, known: ReadonlyMap<string, string>): ImportFileReport | null {
  const { reading, format } = read;
  if (!reading.ok || reading.refused.length > 0 || reading.fields.length === 0) return null;
  if (!reading.fields.every((f) => known.has(f.result.source.key))) return null;
  return {
    file: name,
    format,
    action: "duplicate",
    reason: null,
    items: reading.fields.map((f) => ({ ...itemOf(f, "duplicate", "imported before"), measurementId: known.get(f.result.source.key)! })),
  };
}

/** What the reader refused before any matching, as report lines. */
const refusedLines = (read: ReadFile): ImportItem[] =>
  read.reading.ok
    ? read.reading.refused.map((r) => ({
        item: r.item,
        action: "refused",
        reason: r.reason,
        patient: null,
        measurementId: null,
        takenAt: null,
        eye: null,
        pattern: null,
        device: null,
      }))
    : [];

/** One file inside the call's transaction; the caller rolls back to the file's savepoint unless it was imported. */
async function importInto(
  tx: Queryable,
  target: ImportTarget,
  name: string,
  read: ReadFile,
  created: Map<string, PatientCandidate>,
  keys: Map<string, string>,
): Promise<ImportFileReport> {
  const { reading, format } = read;
  if (!reading.ok) return { file: name, format, action: "refused", reason: reading.reason, items: [] };
  const items = refusedLines(read);
  if (reading.fields.length === 0 && items.length === 0)
    return { file: name, format, action: "refused", reason: "the file holds no visual field", items: [] };
  for (const field of reading.fields) items.push(await importField(tx, target, field, created, keys));
  const action = fileAction(items);
  const refused = items.filter((i) => i.action === "refused").length;
  return {
    file: name,
    format,
    action,
    reason: action === "refused" ? `${refused} of ${items.length} fields refused: nothing of the file was written` : null,
    items,
  };
}

/**
 * The files of one call. Each file is all or nothing: it runs inside a savepoint of the call's transaction and is
 * rolled back to it when any field is refused (or on a dry run, where the whole call is rolled back at the end, so a
 * patient the first file would create is the one the next file would match). One transaction per call rather than
 * per file: a folder is hundreds of files, and PGlite's cost is per transaction as much as per statement.
 * A file whose fields were all imported before is answered from `known` without touching the transaction.
 */
export async function importFiles(
  ctx: ServerContext,
  target: ImportTarget,
  files: ReadonlyArray<{ readonly name: string; readonly read: ReadFile }>,
  known: ReadonlyMap<string, string>,
): Promise<ImportFileReport[]> {
  const reports: Array<ImportFileReport | null> = files.map((f) => duplicateReport(f.name, f.read, known));
  if (reports.every((r) => r !== null)) return reports as ImportFileReport[];
  try {
    return await write(ctx, async (tx, fx) => {
      // One import at a time per organisation: two calls naming the same new patient create them once.
      await tx.query("select pg_advisory_xact_lock(hashtext($1))", [`import:${target.organisationId}`]);
      const created = new Map<string, PatientCandidate>();
      // The keys stored already, read again under the lock (another call may have stored some since `known`).
      const keys = new Map(
        await importedKeys(
          tx,
          target.organisationId,
          files.flatMap((f, i) => (reports[i] === null && f.read.reading.ok ? f.read.reading.fields.map((x) => x.result.source.key) : [])),
        ),
      );
      const out: ImportFileReport[] = [];
      for (const [i, f] of files.entries()) {
        const known = reports[i];
        if (known) {
          out.push(known);
          continue;
        }
        await tx.query("savepoint import_file");
        const createdBefore = new Set(created.keys());
        const keysBefore = new Set(keys.keys());
        const report = await importInto(tx, target, f.name, f.read, created, keys);
        if (report.action === "refused") {
          await tx.query("rollback to savepoint import_file");
          for (const id of created.keys()) if (!createdBefore.has(id)) created.delete(id);
          for (const key of keys.keys()) if (!keysBefore.has(key)) keys.delete(key);
          out.push({ ...report, items: report.items.map(unwritten) });
        } else {
          await tx.query("release savepoint import_file");
          out.push(target.dryRun ? { ...report, items: report.items.map(unwritten) } : report);
        }
      }
      if (target.dryRun) throw new RolledBack(out);
      for (const p of created.values()) {
        const full = await getPatient(tx, target.organisationId, p.id);
        if (full) fx.event(target.organisationId, "patient", "insert", full);
      }
      return out;
    });
  } catch (e) {
    if (e instanceof RolledBack) return e.reports;
    throw e;
  }
}
