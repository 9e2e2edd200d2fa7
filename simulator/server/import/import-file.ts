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

// One file into the organisation, in one transaction (issue 29: "nothing is written by halves: one file is one
// transaction"): each field's key looked up (there already: duplicate), its patient matched or created
// (core/import/patient-match.ts), its result scored with Isopter's normals and stored as a measurement. A field refused
// refuses the whole file: the transaction is rolled back and the report names every field and why. A dry run does all
// of it and rolls back, so it says exactly what the import would do.

export interface ImportTarget {
  readonly organisationId: string;
  /** The organisation's own issuers of patient IDs (its name): an ID from anyone else is not ours to match on. */
  readonly ownIssuers: readonly string[];
  /** Importing on a patient's page: every field must be this patient's. */
  readonly patientId: string | null;
  readonly dryRun: boolean;
  readonly now: string;
}

/** Thrown to roll a transaction back while keeping its report (a dry run, or a file with a refused field). */
class RolledBack extends Error {
  constructor(readonly report: ImportFileReport) {
    super("rolled back");
  }
}

const candidateColumns = patientColumns;

const patientWithId = async (tx: Queryable, org: string, uniqueId: string): Promise<PatientCandidate | undefined> => {
  const rows = await tx.query(`select ${candidateColumns} from patients where organisation_id = $1 and body->>'uniqueId' = $2`, [
    org,
    uniqueId,
  ]);
  return rows[0] ? toPatient(rows[0]) : undefined;
};

const patientsBornOn = async (tx: Queryable, org: string, birthdate: string): Promise<PatientCandidate[]> =>
  (await tx.query(`select ${candidateColumns} from patients where organisation_id = $1 and birthdate = $2`, [org, birthdate])).map(
    toPatient,
  );

const itemOf = (field: ImportedField, action: ImportItem["action"], reason: string | null): ImportItem => ({
  item: field.item,
  action,
  reason,
  patient: null,
  measurementId: null,
  takenAt: field.result.takenAt,
  eye: field.result.eye,
  pattern: field.result.pattern,
  device: [sourceDeviceName(field.result.source), field.result.source.strategyName].filter(Boolean).join(" · "),
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
): Promise<ImportItem> {
  const org = target.organisationId;
  const key = field.result.source.key;
  const existing = await tx.query<{ measurement_id: string }>(
    "select measurement_id from imported_results where organisation_id = $1 and source_key = $2",
    [org, key],
  );
  if (existing[0]) return { ...itemOf(field, "duplicate", "imported before"), measurementId: existing[0].measurement_id };

  const identity = field.patient;
  const ownIssuer = identity.issuer === null || target.ownIssuers.some((o) => o.toLowerCase() === identity.issuer!.trim().toLowerCase());
  const byId = identity.id !== null && ownIssuer ? await patientWithId(tx, org, identity.id.trim()) : undefined;
  const bornThen = identity.birthdate !== null ? await patientsBornOn(tx, org, identity.birthdate) : [];
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

export async function importFile(ctx: ServerContext, target: ImportTarget, name: string, read: ReadFile): Promise<ImportFileReport> {
  const { reading, format } = read;
  if (!reading.ok) return { file: name, format, action: "refused", reason: reading.reason, items: [] };
  const refusedByReader: ImportItem[] = reading.refused.map((r) => ({
    item: r.item,
    action: "refused",
    reason: r.reason,
    patient: null,
    measurementId: null,
    takenAt: null,
    eye: null,
    pattern: null,
    device: null,
  }));
  if (reading.fields.length === 0 && refusedByReader.length === 0)
    return { file: name, format, action: "refused", reason: "the file holds no visual field", items: [] };
  try {
    return await write(ctx, async (tx, fx) => {
      // One import at a time per organisation: two files naming the same new patient create them once.
      await tx.query("select pg_advisory_xact_lock(hashtext($1))", [`import:${target.organisationId}`]);
      const created = new Map<string, PatientCandidate>();
      const items = [...refusedByReader];
      for (const field of reading.fields) items.push(await importField(tx, target, field, created));
      const action = fileAction(items);
      const report: ImportFileReport = {
        file: name,
        format,
        action,
        reason:
          action === "refused"
            ? `${items.filter((i) => i.action === "refused").length} of ${items.length} fields refused: nothing of the file was written`
            : null,
        items,
      };
      if (action === "refused" || target.dryRun) throw new RolledBack({ ...report, items: report.items.map(unwritten) });
      for (const p of created.values()) {
        const full = await getPatient(tx, target.organisationId, p.id);
        if (full) fx.event(target.organisationId, "patient", "insert", full);
      }
      return report;
    });
  } catch (e) {
    if (e instanceof RolledBack) return e.report;
    throw e;
  }
}
