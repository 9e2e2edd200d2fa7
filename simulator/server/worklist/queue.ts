import { Result } from "effect";
import { item as firstItem, isoDate, items, personName, text, type Dataset } from "../../../core/import/dicom-values.ts";
import type { PatientIdentity } from "../../../core/import/imported-field.ts";
import { decidePatient, type PatientCandidate } from "../../../core/import/patient-match.ts";
import { protocolOf, type ProtocolCode } from "../../../core/dicom/worklist-protocol.ts";
import { clinicTime, instantOfWallClock } from "../../../core/model/clinic-time.ts";
import { decode } from "../../../core/model/decode.ts";
import {
  type DicomSettings,
  type WorklistReport,
  type WorklistSettings,
  WorklistSettingsSchema,
  type WorklistStep,
} from "../../../core/model/dicom-network.ts";
import { Eye, type Pattern, patternLabel, Sex, strategyCodes, TestType } from "../../../core/model/enums.ts";
import type { Examination } from "../../../core/model/examination.ts";
import type { MeasurementConfig } from "../../../core/model/measurement-config.ts";
import { newMeasurement, type Measurement } from "../../../core/model/measurement.ts";
import type { Order } from "../../../core/model/order.ts";
import { configViolations } from "../../../core/rules/allowed-config.ts";
import { examinationConfigOf, measurementConfigWith } from "../../../core/rules/defaults.ts";
import { displayNameFor } from "../../../core/rules/display-name.ts";
import type { ConfigContext } from "../../../core/rules/form-context.ts";
import { onEyeChange, onPatternChange, onStrategyChange } from "../../../core/rules/form-dependencies.ts";
import { clipNotes } from "../../../core/rules/notes.ts";
import { eyesFor } from "../../../core/rules/eyes.ts";
import { validateTextInput } from "../../../core/rules/text-input.ts";
import type { ServerContext } from "../context.ts";
import type { Queryable } from "../db/database.ts";
import { dicomSettingsOf } from "../dicom/settings.ts";
import { eyesToCreate } from "../handlers/measurement-rules.ts";
import { multiTestsOf } from "../handlers/organisation-flags.ts";
import { type Effects, write } from "../handlers/write.ts";
import { Failure, invalid, notFound } from "../http/failure.ts";
import * as appointments from "../store/appointments.ts";
import { deviceBySn } from "../store/devices.ts";
import { insertExamination } from "../store/examinations.ts";
import { newId } from "../store/ids.ts";
import { insertMeasurement, nextQueuePosition } from "../store/measurements.ts";
import { getPatient, insertPatient, patientColumns, toPatient } from "../store/patients.ts";
import { findScheduledSteps, type WorklistItem } from "./find.ts";

// The worklist's steps into the organisation (issue 29: "Each new step becomes, or matches, a patient and a
// measurement queued on a chosen headset (an appointment in the appointment variant) ... A step seen again is not
// queued twice"; "a worklist item without a patient ID" is refused with a line naming it while the rest goes on).
// Per step, in the order of their scheduled start:
// - its key, the Scheduled Procedure Step ID with the Accession Number and Patient ID, names it at the provider; a step
//   with neither a step ID nor an accession number cannot be told apart from the next and is refused;
// - no Patient ID: refused ("no patient ID");
// - seen before (worklist_steps, migration 015): "seen", nothing written. A step only matched while no headset was set
//   is queued once a headset is set;
// - its protocol codes as one Isopter test (core/dicom/worklist-protocol.ts), then the measurement form's rules
//   (core/rules: the test's size, showtime and eyes as the form would pick them; a pair the form does not offer, such
//   as a local code's 10-2 SORS, is refused);
// - the patient matched by ID, else by name and birth date, or created once (core/import/patient-match.ts, as an import
//   does: the same per-organisation lock, so an import and a query never create one patient twice). The worklist is the
//   clinic's own: its issuer of patient IDs counts as the clinic's;
// - queued on the settings' headset with the step's order (accession number, requested procedure ID, step ID, study
//   instance UID), which travels into the result's OPV and FHIR: a measurement in the measurement variant, an
//   appointment with its perimetry examination in the appointment variant (organisation multi_tests). No headset set:
//   "matched" (the patient is matched or created, nothing queued).
// Eyes: the worklist has no laterality attribute; a step description naming one eye (OD / right, OS / left) orders that
// eye, any other the form's "Both": a right and a left measurement as a pair (Esterman: binocular, its only eye).
// Refusals come before anything of the step is written; all steps are one transaction, and a dry run rolls it back.

/** A step as Isopter reads it from the provider's answer. */
export interface ScheduledStep {
  /** "step SPS-1 (accession A-77)". */
  readonly item: string;
  /** Null when the step has neither a step ID nor an accession number. */
  readonly key: string | null;
  readonly patient: PatientIdentity;
  readonly order: Order;
  readonly codes: readonly ProtocolCode[];
  readonly description: string | null;
  readonly scheduledAt: string | null;
}

/** The server's own zone: a worklist's dates and times are the clinic's wall clock, and the server runs in the clinic. */
export const serverTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

/** The day the query asks for (YYYYMMDD): today in the server's zone. */
export const worklistDay = (now: number, timeZone = serverTimeZone()): string =>
  clinicTime(new Date(now).toISOString(), timeZone).date.replace(/-/g, "");

const sexOf: Record<string, Sex> = { F: Sex.Female, M: Sex.Male, O: Sex.Other };

const itemName = (spsId: string | null, accession: string | null): string =>
  `step ${spsId ?? "without a step ID"}${accession ? ` (accession ${accession})` : ""}`;

/** The scheduled steps of one C-FIND match (one Scheduled Procedure Step item each, as providers answer). */
export function readSteps(match: WorklistItem, timeZone: string): ScheduledStep[] {
  const ds = match as Dataset;
  const accession = text(ds, "AccessionNumber");
  const requestedProcedureId = text(ds, "RequestedProcedureID");
  const studyInstanceUid = text(ds, "StudyInstanceUID");
  const birth = text(ds, "PatientBirthDate");
  const sex = text(ds, "PatientSex");
  const patient: PatientIdentity = {
    id: text(ds, "PatientID"),
    issuer: text(ds, "IssuerOfPatientID"),
    name: personName(text(ds, "PatientName")),
    birthdate: birth === null ? null : isoDate(birth),
    sex: sex === null ? null : (sexOf[sex.toUpperCase()] ?? null),
  };
  const sps = items(ds, "ScheduledProcedureStepSequence");
  return (sps.length > 0 ? sps : [{}]).map((step) => {
    const spsId = text(step, "ScheduledProcedureStepID");
    const date = text(step, "ScheduledProcedureStepStartDate");
    const time = text(step, "ScheduledProcedureStepStartTime");
    const day = isoDate(date);
    const t = /^(\d{2})(\d{2})?(\d{2})?/.exec(time ?? "");
    const scheduledAt =
      day === null ? null : instantOfWallClock(`${day}T${t?.[1] ?? "00"}:${t?.[2] ?? "00"}:${t?.[3] ?? "00"}.000`, timeZone);
    return {
      item: itemName(spsId, accession),
      key: spsId === null && accession === null ? null : [spsId ?? "", accession ?? "", patient.id ?? ""].join("\u0001"),
      patient,
      order: { accessionNumber: accession, requestedProcedureId, scheduledProcedureStepId: spsId, studyInstanceUid },
      codes: items(step, "ScheduledProtocolCodeSequence").flatMap((c) => {
        const value = text(c, "CodeValue") ?? text(c, "LongCodeValue") ?? text(c, "URNCodeValue");
        return value === null ? [] : [{ scheme: text(c, "CodingSchemeDesignator") ?? "", value, meaning: text(c, "CodeMeaning") }];
      }),
      description:
        text(step, "ScheduledProcedureStepDescription") ?? text(firstItem(ds, "RequestedProcedureCodeSequence") ?? {}, "CodeMeaning"),
      scheduledAt,
    };
  });
}

/** The eye a description orders: one eye named alone, else both (see the header). */
export function eyeOf(description: string | null): Eye {
  const d = description ?? "";
  const right = /\bOD\b/.test(d) || /\bright\b/i.test(d);
  const left = /\bOS\b/.test(d) || /\bleft\b/i.test(d);
  return right && !left ? Eye.Right : left && !right ? Eye.Left : Eye.Both;
}

const report = (step: ScheduledStep, action: WorklistStep["action"], reason: string | null = null): WorklistStep => ({
  item: step.item,
  action,
  reason,
  patient: null,
  queuedId: null,
  eye: null,
  pattern: null,
  strategy: null,
  scheduledAt: step.scheduledAt,
});

/** The measurement settings of the step's test as the form picks them, or the reason the form would not offer it. */
function configFor(
  step: ScheduledStep,
  settings: WorklistSettings,
  multiTests: boolean,
): { config: MeasurementConfig } | { refused: string; pattern: Pattern } | { refused: string } {
  const protocol = protocolOf(step.codes, settings.localCodes);
  if (!protocol.ok) return { refused: protocol.reason };
  const variant = multiTests ? "newer" : "older";
  const context: ConfigContext = { mode: "create", variant, patientLanguage: null };
  const { pattern, strategy } = protocol;
  const test = `${patternLabel[pattern]} ${strategyCodes[strategy].label}`;
  let config = measurementConfigWith({ deviceSn: settings.deviceSn }, variant);
  config = onPatternChange(config, pattern, context);
  config = onStrategyChange(config, strategy, context);
  const eyes = eyesFor(pattern, "create");
  const wanted = eyeOf(step.description);
  config = onEyeChange(config, eyes.includes(wanted) ? wanted : eyes[0]!, context);
  if (config.pattern !== pattern || config.strategy !== strategy)
    return { refused: `the protocol orders ${test}, which the measurement form does not offer`, pattern };
  const bad = configViolations(config, context);
  if (bad.length > 0)
    return { refused: `the protocol orders ${test}, whose ${bad.join(", ")} the measurement form does not allow`, pattern };
  const notes = clipNotes(
    [
      `Worklist ${step.item}`,
      step.order.requestedProcedureId ? `requested procedure ${step.order.requestedProcedureId}` : null,
      step.description,
    ]
      .filter(Boolean)
      .join(", "),
  );
  return { config: { ...config, notes } };
}

async function patientCandidates(tx: Queryable, org: string, uniqueId: string, birthdate: string | null) {
  const rows = (
    await tx.query(`select ${patientColumns} from patients where organisation_id = $1 and (body->>'uniqueId' = $2 or birthdate = $3)`, [
      org,
      uniqueId,
      birthdate ?? "",
    ])
  ).map(toPatient);
  return {
    byId: rows.find((p) => p.uniqueId === uniqueId),
    bornThen: birthdate === null ? [] : rows.filter((p) => p.birthdate === birthdate),
  };
}

/** The measurement(s) of the step on the headset's lane (measurement variant); the first one's id. */
async function queueMeasurements(tx: Queryable, fx: Effects, org: string, config: MeasurementConfig, order: Order, now: string) {
  const sn = config.deviceSn!;
  let position = await nextQueuePosition(tx, sn);
  const out: Measurement[] = [];
  for (const eye of eyesToCreate(config.eye)) {
    const m: Measurement = { ...newMeasurement({ ...config, patientId: config.patientId!, eye }, newId(), now, out[0]?.id ?? null), order };
    await insertMeasurement(tx, org, m, position++);
    out.push(m);
    fx.event(org, "measurement", "insert", m, sn);
  }
  fx.laneChanged(sn);
  return out[0]!.id;
}

/** An appointment with the step's perimetry examination (both eyes: a right and a left one), appointment variant. */
async function queueAppointment(tx: Queryable, fx: Effects, org: string, config: MeasurementConfig, order: Order, now: string) {
  const sn = config.deviceSn!;
  const patientId = config.patientId!;
  const base = {
    id: newId(),
    patientId,
    deviceSn: sn,
    audioGuide: config.audioGuide,
    tutorial: false,
    trackGaze: config.trackGaze,
    standaloneId: null,
    createdAt: now,
    updatedAt: now,
    trashedAt: null,
  };
  await appointments.insertAppointment(tx, org, base, await appointments.nextAppointmentPosition(tx, sn));
  let position = 0;
  for (const eye of eyesToCreate(config.eye)) {
    const e: Examination = {
      id: newId(),
      patientId,
      type: TestType.Perimetry,
      eye,
      notes: config.notes,
      taken: false,
      appointmentId: base.id,
      deviceSn: sn,
      result: null,
      config: examinationConfigOf(config),
      order,
      createdAt: now,
      updatedAt: now,
      trashedAt: null,
    };
    await insertExamination(tx, org, e, position++);
    fx.event(org, "examination", "insert", e, sn);
  }
  const a = (await appointments.getAppointment(tx, org, base.id))!;
  fx.event(org, "appointment", "insert", a, sn);
  fx.laneChanged(sn);
  return base.id;
}

/** Thrown to roll a dry run back while keeping its report. */
class RolledBack extends Error {
  constructor(readonly steps: WorklistStep[]) {
    super("rolled back");
  }
}

export interface QueueTarget {
  readonly organisationId: string;
  readonly settings: WorklistSettings;
  readonly dryRun: boolean;
  readonly now: string;
}

/** The steps into the organisation, one report line each, in their scheduled order. */
export async function queueSteps(ctx: ServerContext, target: QueueTarget, steps: readonly ScheduledStep[]): Promise<WorklistStep[]> {
  const org = target.organisationId;
  const ordered = [...steps].sort((a, b) => (a.scheduledAt ?? "").localeCompare(b.scheduledAt ?? "") || a.item.localeCompare(b.item));
  try {
    return await write(ctx, async (tx, fx) => {
      // One writer of patients at a time per organisation, imports included (import/import-file.ts takes the same lock).
      await tx.query("select pg_advisory_xact_lock(hashtext($1))", [`import:${org}`]);
      const keys = ordered.flatMap((s) => (s.key === null ? [] : [s.key]));
      const seen = new Map(
        (
          await tx.query<{ step_key: string; queued_id: string | null }>(
            "select step_key, queued_id from worklist_steps where organisation_id = $1 and step_key = any($2)",
            [org, keys],
          )
        ).map((r) => [r.step_key, r.queued_id]),
      );
      const organisation = await tx.query<{ name: string }>("select name from organisations where id = $1", [org]);
      const multiTests = await multiTestsOf(tx, org);
      const sn = target.settings.deviceSn;
      const out: WorklistStep[] = [];
      for (const step of ordered) {
        if (step.key === null) {
          out.push(report(step, "refused", "the step has neither a Scheduled Procedure Step ID nor an Accession Number"));
          continue;
        }
        if (step.patient.id === null) {
          out.push(report(step, "refused", "no patient ID"));
          continue;
        }
        const before = seen.get(step.key);
        if (before !== undefined && (before !== null || sn === null)) {
          out.push({ ...report(step, "seen", before === null ? "matched before; no headset is set" : "queued before"), queuedId: before });
          continue;
        }
        const planned = configFor(step, target.settings, multiTests);
        if (!("config" in planned)) {
          out.push({ ...report(step, "refused", planned.refused), pattern: "pattern" in planned ? planned.pattern : null });
          continue;
        }
        const { config } = planned;
        const described = { ...report(step, "refused"), eye: config.eye, pattern: config.pattern, strategy: config.strategy };

        const identity = step.patient;
        // The clinic's worklist issues the clinic's patient IDs.
        const ownIssuers = [...organisation.map((o) => o.name), ...(identity.issuer ? [identity.issuer] : [])];
        const uniqueId = identity.id!.trim();
        const { byId, bornThen } = await patientCandidates(tx, org, uniqueId, identity.birthdate);
        const decision = decidePatient(identity, ownIssuers, byId, bornThen);
        if (decision.kind === "refused") {
          out.push({ ...described, reason: decision.reason });
          continue;
        }
        let patient: PatientCandidate;
        let created = false;
        if (decision.kind === "matched") patient = decision.patient;
        else {
          const name = identity.name!.trim();
          const problem = validateTextInput(name) ?? validateTextInput(uniqueId);
          if (problem) {
            out.push({ ...described, reason: `the patient's name or ID cannot be stored: ${problem.text}` });
            continue;
          }
          const id = newId();
          await insertPatient(
            tx,
            org,
            id,
            { name, uniqueId, gender: identity.sex ?? Sex.Other, lang: "en", birthdate: identity.birthdate! },
            target.now,
          );
          const full = (await getPatient(tx, org, id))!;
          fx.event(org, "patient", "insert", full);
          patient = full;
          created = true;
        }
        const patientRef = { id: patient.id, name: patient.name, uniqueId: patient.uniqueId, created };
        let queuedId: string | null = null;
        if (sn !== null) {
          const full = { ...config, patientId: patient.id, displayName: displayNameFor(patient.name) };
          queuedId = multiTests
            ? await queueAppointment(tx, fx, org, full, step.order, target.now)
            : await queueMeasurements(tx, fx, org, full, step.order, target.now);
        }
        await tx.query(
          `insert into worklist_steps (organisation_id, step_key, queued_id, seen_at) values ($1, $2, $3, $4)
           on conflict (organisation_id, step_key) do update set queued_id = excluded.queued_id, seen_at = excluded.seen_at`,
          [org, step.key, queuedId, target.now],
        );
        seen.set(step.key, queuedId);
        out.push({ ...described, action: queuedId === null ? "matched" : "queued", reason: null, patient: patientRef, queuedId });
      }
      if (target.dryRun) throw new RolledBack(out);
      return out;
    });
  } catch (e) {
    if (!(e instanceof RolledBack)) throw e;
    // As the rolled-back transaction leaves it: nothing queued, no patient created.
    return e.steps.map((s) => ({
      ...s,
      queuedId: s.action === "seen" ? s.queuedId : null,
      patient: s.patient?.created ? { ...s.patient, id: null } : s.patient,
    }));
  }
}

/** The organisation's worklist settings, checked again before use (AE titles, host, port: the contract's schema). */
export async function worklistSettingsOf(q: Queryable, organisationId: string): Promise<WorklistSettings> {
  const settings: DicomSettings = await dicomSettingsOf(q, organisationId);
  if (!settings.worklist) throw new Failure("not_found", "No worklist provider is set for the organisation (dicom/settings)", "worklist");
  const checked = decode(WorklistSettingsSchema, settings.worklist);
  if (Result.isFailure(checked)) throw invalid(`worklist.${checked.failure.field}`, checked.failure.message);
  const worklist = checked.success;
  if (worklist.deviceSn !== null && !(await deviceBySn(q, organisationId, worklist.deviceSn)))
    throw notFound(`Headset ${worklist.deviceSn} (the worklist's)`, "worklist.deviceSn");
  return worklist;
}

/**
 * Queries the organisation's worklist provider now and queues each new step. A provider that cannot be reached or
 * refuses is a Failure "unavailable" (503) with the provider's one line; settings missing or bad are not_found or
 * validation_error naming the field.
 */
export async function queryWorklist(ctx: ServerContext, organisationId: string, dryRun: boolean): Promise<WorklistReport> {
  const settings = await worklistSettingsOf(ctx.db, organisationId);
  const timeZone = serverTimeZone();
  const found = await findScheduledSteps(settings.provider, { date: worklistDay(ctx.now(), timeZone), modality: settings.modality });
  if (!found.ok) throw new Failure("unavailable", found.message);
  const steps = found.items.flatMap((m) => readSteps(m, timeZone));
  const now = new Date(ctx.now()).toISOString();
  return { dryRun, steps: await queueSteps(ctx, { organisationId, settings, dryRun, now }, steps) };
}
