import { strategyShortName } from "../../../core/analytics/series-sources.ts";
import type { ImportedField } from "../../../core/import/imported-field.ts";
import { decidePatient, ownIssuer, type PatientCandidate } from "../../../core/import/patient-match.ts";
import { patternLabel, Sex } from "../../../core/model/enums.ts";
import type { ImportFileReport, ImportItem, PatientMatch } from "../../../core/model/import.ts";
import { type Measurement, newMeasurement } from "../../../core/model/measurement.ts";
import type { PatientFields } from "../../../core/model/patient.ts";
import { sourceDeviceName } from "../../../core/model/result-source.ts";
import { measurementConfigWith } from "../../../core/rules/defaults.ts";
import { validateTextInput } from "../../../core/rules/text-input.ts";
import { newId } from "../store/ids.ts";
import type { ReadFile } from "./read-file.ts";
import { scoredResult } from "./scoring.ts";

// What a call's files would write, decided in memory (issue 29): for each file, each field's key (stored before, or
// earlier in this call: a duplicate), its patient (core/import/patient-match.ts over the organisation's candidates and
// the patients this call creates), its result scored and made a measurement. A file with a refused field contributes
// nothing, and the patients it would have created are forgotten: each file is all or nothing. import-file.ts reads
// the candidates before and writes the plan after, in one transaction.

export interface ImportTarget {
  readonly organisationId: string;
  /** The organisation's own issuers of patient IDs: an ID from anyone else is not ours to match on. */
  readonly ownIssuers: readonly string[];
  /** Importing on a patient's page: every field must be this patient's. */
  readonly patientId: string | null;
  readonly dryRun: boolean;
  readonly now: string;
}

export interface NewPatient extends PatientCandidate {
  readonly fields: PatientFields;
}

/** The rows a call writes: the patients it creates, the measurements, and each field's key. */
export interface ImportWrites {
  readonly patients: NewPatient[];
  readonly measurements: Measurement[];
  readonly keys: Array<{ key: string; measurementId: string; format: string; fileName: string | null }>;
}

/** The organisation's patients a call's fields may be, by unique id and by birth date, with those the call creates. */
export class PatientPool {
  private readonly byId = new Map<string, PatientCandidate>();
  private readonly byBirthdate = new Map<string, PatientCandidate[]>();
  constructor(patients: readonly PatientCandidate[]) {
    for (const p of patients) this.add(p);
  }
  add(p: PatientCandidate): void {
    this.byId.set(p.uniqueId, p);
    const day = this.byBirthdate.get(p.birthdate);
    if (day) day.push(p);
    else this.byBirthdate.set(p.birthdate, [p]);
  }
  remove(p: PatientCandidate): void {
    if (this.byId.get(p.uniqueId) === p) this.byId.delete(p.uniqueId);
    const day = this.byBirthdate.get(p.birthdate);
    if (day) day.splice(day.indexOf(p), 1);
  }
  withId = (uniqueId: string | null) => (uniqueId === null ? undefined : this.byId.get(uniqueId));
  bornOn = (birthdate: string | null) => (birthdate === null ? [] : (this.byBirthdate.get(birthdate) ?? []));
}

/** The unique ids and birth dates a call's fields may match on: what the pool is read for. */
export function poolQuery(target: ImportTarget, fields: readonly ImportedField[]): { ids: string[]; birthdates: string[] } {
  const ids = new Set<string>();
  const birthdates = new Set<string>();
  for (const { patient } of fields) {
    if (patient.id !== null && patient.id.trim() !== "") {
      ids.add(patient.id.trim());
      if (patient.issuer !== null && !ownIssuer(patient.issuer, target.ownIssuers)) ids.add(`${patient.issuer}:${patient.id.trim()}`);
    }
    if (patient.birthdate !== null) birthdates.add(patient.birthdate);
  }
  return { ids: [...ids], birthdates: [...birthdates] };
}

export const itemOf = (field: ImportedField, action: ImportItem["action"], reason: string | null): ImportItem => ({
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
const newUniqueId = (field: ImportedField, own: boolean): string => {
  const { id, issuer } = field.patient;
  if (id !== null && id.trim() !== "") return own ? id.trim() : `${issuer}:${id.trim()}`;
  return `imported-${newId().slice(0, 8)}`;
};

/** An item as a call that wrote nothing leaves it: no measurement stored, no patient created. */
export const unwritten = (i: ImportItem): ImportItem => ({
  ...i,
  measurementId: i.action === "imported" ? null : i.measurementId,
  patient: i.patient?.match === "created" ? { ...i.patient, id: null } : i.patient,
});

const fileAction = (items: readonly ImportItem[]): ImportFileReport["action"] =>
  items.some((i) => i.action === "refused")
    ? "refused"
    : items.length > 0 && items.every((i) => i.action === "duplicate")
      ? "duplicate"
      : "imported";

/** The call's state while its files are planned one after the other. */
export interface Planning {
  readonly target: ImportTarget;
  readonly pool: PatientPool;
  /** Keys stored before the call, and those this call stores: key -> measurement id. */
  readonly keys: Map<string, string>;
  readonly writes: ImportWrites;
}

function planField(p: Planning, field: ImportedField, file: ImportWrites): ImportItem {
  const { target, pool, keys } = p;
  const key = field.result.source.key;
  const existing = keys.get(key);
  if (existing !== undefined) return { ...itemOf(field, "duplicate", "imported before"), measurementId: existing };

  const identity = field.patient;
  const own = ownIssuer(identity.issuer, target.ownIssuers);
  const byId = identity.id !== null && own ? pool.withId(identity.id.trim()) : undefined;
  const decision = decidePatient(identity, target.ownIssuers, byId, pool.bornOn(identity.birthdate));
  if (decision.kind === "refused") return itemOf(field, "refused", decision.reason);

  let patient: PatientCandidate;
  let match: PatientMatch;
  if (decision.kind === "matched") {
    patient = decision.patient;
    match = decision.by;
  } else {
    const uniqueId = newUniqueId(field, own);
    const name = identity.name!.trim();
    const problem = validateTextInput(name) ?? validateTextInput(uniqueId);
    if (problem) return itemOf(field, "refused", `the patient's name or ID cannot be stored: ${problem.text}`);
    const fields: PatientFields = { name, uniqueId, gender: identity.sex ?? Sex.Other, lang: "en", birthdate: identity.birthdate! };
    const created: NewPatient = { id: newId(), name, uniqueId, birthdate: fields.birthdate, trashedAt: null, fields };
    pool.add(created);
    file.patients.push(created);
    patient = created;
    match = "created";
  }
  const patientRef = { id: patient.id, name: patient.name, uniqueId: patient.uniqueId, match };
  if (target.patientId !== null && patient.id !== target.patientId)
    return { ...itemOf(field, "refused", `the field is ${patient.name}'s (${patient.uniqueId}), not this patient's`), patient: patientRef };

  const measurementId = newId();
  const result = scoredResult({ ...field.result, measurementId, patientId: patient.id }, patient.birthdate);
  const config = measurementConfigWith({
    patientId: patient.id,
    deviceSn: null,
    displayName:
      `${patternLabel[result.pattern]} ${result.source?.strategyName ? strategyShortName(result.source.strategyName) : ""}`.trim(),
    eye: result.eye,
    pattern: result.pattern,
    strategy: result.strategy,
    stimuliSize: result.stimulusSize,
    stimuliShowtime: result.stimuliShowtime,
    trackGaze: false,
  });
  file.measurements.push({ ...newMeasurement(config, measurementId, target.now), result });
  file.keys.push({ key, measurementId, format: field.result.source.format, fileName: field.result.source.fileName });
  keys.set(key, measurementId);
  return { ...itemOf(field, "imported", null), patient: patientRef, measurementId };
}

/** One file's report; its writes join the call's only when none of its fields was refused. */
export function planFile(p: Planning, name: string, read: ReadFile): ImportFileReport {
  const { reading, format } = read;
  if (!reading.ok) return { file: name, format, action: "refused", reason: reading.reason, items: [] };
  const items: ImportItem[] = reading.refused.map((r) => ({
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
  if (reading.fields.length === 0 && items.length === 0)
    return { file: name, format, action: "refused", reason: "the file holds no visual field", items: [] };
  const file: ImportWrites = { patients: [], measurements: [], keys: [] };
  for (const field of reading.fields) items.push(planField(p, field, file));
  const action = fileAction(items);
  if (action === "refused") {
    for (const created of file.patients) p.pool.remove(created);
    for (const k of file.keys) p.keys.delete(k.key);
    const refused = items.filter((i) => i.action === "refused").length;
    return {
      file: name,
      format,
      action,
      reason: `${refused} of ${items.length} fields refused: nothing of the file was written`,
      items: items.map(unwritten),
    };
  }
  p.writes.patients.push(...file.patients);
  p.writes.measurements.push(...file.measurements);
  p.writes.keys.push(...file.keys);
  return { file: name, format, action, reason: null, items: p.target.dryRun ? items.map(unwritten) : items };
}
