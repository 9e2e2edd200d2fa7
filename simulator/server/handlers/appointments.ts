import type { Appointment } from "../../../core/model/appointment.ts";
import { Eye, TestType } from "../../../core/model/enums.ts";
import type { Examination, ExaminationPayload } from "../../../core/model/examination.ts";
import type { Language } from "../../../core/model/enums.ts";
import { claimsOf, type SomeHandlers } from "../http/handler.ts";
import { Failure, invalid, notFound } from "../http/failure.ts";
import type { Queryable } from "../db/database.ts";
import * as store from "../store/appointments.ts";
import { deviceBySn } from "../store/devices.ts";
import * as exams from "../store/examinations.ts";
import { newId } from "../store/ids.ts";
import { getPatient } from "../store/patients.ts";
import { checkMeasurementConfig } from "./measurement-rules.ts";
import { multiTestsOf } from "./organisation-flags.ts";
import { nowIso, write, type Effects } from "./write.ts";

// Appointments and examinations: scheduling §7 "Appointments and examinations". An appointment is queued on its device
// while it has an untaken examination; its examinations run in `position` order.

const patientOr404 = async (tx: Queryable, org: string, id: string, field = "body.patientId") => {
  const p = await getPatient(tx, org, id);
  if (!p || p.trashedAt !== null) throw notFound("Patient", field);
  return p;
};

const deviceOr404 = async (tx: Queryable, org: string, sn: string, field = "body.deviceSn") => {
  if (!(await deviceBySn(tx, org, sn))) throw notFound("Device", field);
};

/** An appointment may name stand-alone data only of its own organisation (issue 15 §5: another's id is one that exists nowhere). */
const standaloneOr404 = async (tx: Queryable, org: string, id: string | null) => {
  if (id === null) return;
  const rows = await tx.query("select 1 from standalone_configs where organisation_id = $1 and id = $2", [org, id]);
  if (rows.length === 0) throw notFound("Stand-alone data", "body.standaloneId");
};

const appointmentOr404 = async (tx: Queryable, org: string, id: string, field = "query.id") => {
  const a = await store.getAppointment(tx, org, id);
  if (!a) throw notFound("Appointment", field);
  return a;
};

const examinationOr404 = async (tx: Queryable, org: string, id: string) => {
  const e = await exams.getExamination(tx, org, id);
  if (!e) throw notFound("Examination");
  return e;
};

/** The examination's rules: perimetry needs an allowed configuration, Amsler an eye (not Both once split). */
const checkPayload = (p: ExaminationPayload, field: string, patientId: string, lang: Language, multiTests: boolean, tutorial: boolean) => {
  const at = (f: string) => (field ? `body.${field}.${f}` : `body.${f}`);
  if (p.patientId !== patientId) throw invalid(at("patientId"), "must be the appointment's patient");
  if (p.type === TestType.Perimetry) {
    if (!p.config) throw invalid(at("config"), "a perimetry examination needs a configuration");
    checkMeasurementConfig(
      { ...p.config, patientId: p.patientId, deviceSn: p.deviceSn, displayName: "", eye: p.eye, notes: p.notes, tutorial },
      "create",
      lang,
      multiTests,
      (f) => at(f === "eye" || f === "notes" ? f : `config.${f}`),
    );
  } else if (p.notes.length > 256) throw invalid(at("notes"), "at most 256 characters");
};

/** 'Both' eyes become a right and a left examination, as for measurements. */
const split = (p: ExaminationPayload): ExaminationPayload[] =>
  p.eye === Eye.Both
    ? [
        { ...p, eye: Eye.Right },
        { ...p, eye: Eye.Left },
      ]
    : [p];

const addExaminations = async (
  tx: Queryable,
  fx: Effects,
  org: string,
  appointment: { id: string | null; patientId: string; deviceSn: string | null },
  payloads: ReadonlyArray<ExaminationPayload>,
  now: string,
  field: string,
): Promise<Examination[]> => {
  const patient = await patientOr404(tx, org, appointment.patientId);
  const multiTests = await multiTestsOf(tx, org);
  const tutorial = false;
  payloads.forEach((p, i) => checkPayload(p, `${field}.${i}`, appointment.patientId, patient.lang, multiTests, tutorial));
  let position =
    appointment.id === null
      ? 0
      : ((
          await tx.query<{ n: number | null }>("select max(position) as n from examinations where appointment_id = $1", [appointment.id])
        )[0]?.n ?? 0) + 1;
  const out: Examination[] = [];
  for (const p of payloads.flatMap(split)) {
    const e: Examination = {
      id: newId(),
      patientId: p.patientId,
      type: p.type,
      eye: p.eye,
      notes: p.notes,
      taken: false,
      appointmentId: appointment.id,
      deviceSn: appointment.deviceSn ?? p.deviceSn,
      result: null,
      config: p.config,
      createdAt: now,
      updatedAt: now,
      trashedAt: null,
    };
    await exams.insertExamination(tx, org, e, position++);
    fx.event(org, "examination", "insert", e, e.deviceSn);
    out.push(e);
  }
  return out;
};

const isQueued = (a: Appointment) => a.trashedAt === null && a.examinations.some((e) => !e.taken);

export const appointmentHandlers: SomeHandlers<
  | "appointment.all"
  | "appointment.allTrashed"
  | "appointment.registerWithExaminations"
  | "appointment.update"
  | "appointment.trash"
  | "appointment.delete"
  | "appointment.restore"
  | "appointment.insertExaminations"
  | "appointment.reorderExaminations"
  | "examination.all"
  | "examination.update"
  | "examination.delete"
  | "examination.trash"
  | "examination.register"
> = {
  "appointment.all": async (call) => ({ data: await store.listAppointments(call.ctx.db, claimsOf(call).organisationId, false) }),
  "appointment.allTrashed": async (call) => ({ data: await store.listAppointments(call.ctx.db, claimsOf(call).organisationId, true) }),
  "appointment.registerWithExaminations": async (call) => {
    const org = claimsOf(call).organisationId;
    const body = call.body;
    const now = nowIso(call.ctx);
    if (body.examinations.length === 0) throw invalid("body.examinations", "at least one test is needed");
    const data = await write(call.ctx, async (tx, fx) => {
      await patientOr404(tx, org, body.patientId);
      await deviceOr404(tx, org, body.deviceSn);
      await standaloneOr404(tx, org, body.standaloneId);
      const id = newId();
      const base = {
        id,
        patientId: body.patientId,
        deviceSn: body.deviceSn,
        audioGuide: body.audioGuide,
        tutorial: body.tutorial,
        trackGaze: body.trackGaze,
        standaloneId: body.standaloneId,
        createdAt: now,
        updatedAt: now,
        trashedAt: null,
      };
      await store.insertAppointment(tx, org, base, await store.nextAppointmentPosition(tx, body.deviceSn));
      await addExaminations(tx, fx, org, base, body.examinations, now, "examinations");
      const a = (await store.getAppointment(tx, org, id))!;
      fx.event(org, "appointment", "insert", a, a.deviceSn);
      fx.laneChanged(a.deviceSn);
      return a;
    });
    return { data };
  },
  "appointment.update": async (call) => {
    const org = claimsOf(call).organisationId;
    const body = call.body;
    const data = await write(call.ctx, async (tx, fx) => {
      const a = await appointmentOr404(tx, org, call.query.id);
      await patientOr404(tx, org, body.patientId);
      await deviceOr404(tx, org, body.deviceSn);
      if (body.standaloneId !== a.standaloneId) await standaloneOr404(tx, org, body.standaloneId);
      const moved = body.deviceSn !== a.deviceSn;
      const next = { ...a, ...body, updatedAt: nowIso(call.ctx) };
      await store.saveAppointment(tx, org, next, moved ? await store.nextAppointmentPosition(tx, body.deviceSn) : undefined);
      await tx.query("update examinations set patient_id = $2, device_sn = $3 where appointment_id = $1", [
        a.id,
        body.patientId,
        body.deviceSn,
      ]);
      if (isQueued(a)) {
        fx.laneChanged(a.deviceSn);
        fx.laneChanged(body.deviceSn);
      }
      const updated = (await store.getAppointment(tx, org, a.id))!;
      fx.event(org, "appointment", "update", updated, updated.deviceSn);
      return updated;
    });
    return { data };
  },
  "appointment.trash": async (call) => {
    const org = claimsOf(call).organisationId;
    const data = await write(call.ctx, async (tx, fx) => {
      const a = await appointmentOr404(tx, org, call.query.id);
      if (a.trashedAt !== null) return a;
      await store.saveAppointment(tx, org, { ...a, trashedAt: nowIso(call.ctx) });
      if (isQueued(a)) fx.laneChanged(a.deviceSn);
      const trashed = (await store.getAppointment(tx, org, a.id))!;
      fx.event(org, "appointment", "trash", { id: trashed.id }, a.deviceSn);
      return trashed;
    });
    return { data };
  },
  "appointment.restore": async (call) => {
    const org = claimsOf(call).organisationId;
    const data = await write(call.ctx, async (tx, fx) => {
      const a = await appointmentOr404(tx, org, call.query.id);
      if (a.trashedAt === null) return a;
      await store.saveAppointment(tx, org, { ...a, trashedAt: null });
      const restored = (await store.getAppointment(tx, org, a.id))!;
      if (isQueued(restored)) fx.laneChanged(a.deviceSn);
      fx.event(org, "appointment", "restore", restored, a.deviceSn);
      return restored;
    });
    return { data };
  },
  "appointment.delete": async (call) => {
    const org = claimsOf(call).organisationId;
    await write(call.ctx, async (tx, fx) => {
      const a = await appointmentOr404(tx, org, call.query.id);
      await store.deleteAppointment(tx, org, a.id); // its examinations cascade
      if (isQueued(a)) fx.laneChanged(a.deviceSn);
      fx.event(org, "appointment", "delete", { id: a.id }, a.deviceSn);
    });
    return { data: { id: call.query.id } };
  },
  "appointment.insertExaminations": async (call) => {
    const org = claimsOf(call).organisationId;
    const now = nowIso(call.ctx);
    if (call.body.examinations.length === 0) throw invalid("body.examinations", "at least one test is needed");
    const data = await write(call.ctx, async (tx, fx) => {
      const a = await appointmentOr404(tx, org, call.query.appointmentId, "query.appointmentId");
      await addExaminations(tx, fx, org, a, call.body.examinations, now, "examinations");
      await store.saveAppointment(tx, org, { ...a, updatedAt: now });
      const updated = (await store.getAppointment(tx, org, a.id))!;
      if (updated.trashedAt === null) fx.laneChanged(a.deviceSn);
      fx.event(org, "appointment", "update", updated, a.deviceSn);
      return updated;
    });
    return { data };
  },
  "appointment.reorderExaminations": async (call) => {
    const org = claimsOf(call).organisationId;
    const ids = call.body.newExaminationsIds;
    const data = await write(call.ctx, async (tx, fx) => {
      const a = await appointmentOr404(tx, org, call.query.id);
      const current = a.examinations.map((e) => e.id);
      if (ids.length !== current.length || new Set(ids).size !== ids.length || !ids.every((id) => current.includes(id)))
        throw new Failure("conflict", "newExaminationsIds: must list exactly the appointment's examinations", "body.newExaminationsIds");
      for (const [i, id] of ids.entries()) await exams.setExaminationPosition(tx, id, i);
      await store.saveAppointment(tx, org, { ...a, updatedAt: nowIso(call.ctx) });
      const updated = (await store.getAppointment(tx, org, a.id))!;
      if (isQueued(updated)) fx.laneChanged(a.deviceSn);
      fx.event(org, "reorder", "update", updated, a.deviceSn);
      return updated;
    });
    return { data };
  },
  "examination.all": async (call) => {
    const org = claimsOf(call).organisationId;
    // Another organisation's patient answers as one that does not exist (issue 15 §5), as perimetry/all does.
    if (call.query.patientId !== undefined && !(await getPatient(call.ctx.db, org, call.query.patientId)))
      throw notFound("Patient", "query.patientId");
    return {
      data: await exams.listExaminations(call.ctx.db, org, {
        patientId: call.query.patientId,
        taken: call.query.taken,
        type: call.query.examinationType,
      }),
    };
  },
  "examination.register": async (call) => {
    const org = claimsOf(call).organisationId;
    const { appointmentId, ...payload } = call.body;
    const now = nowIso(call.ctx);
    const data = await write(call.ctx, async (tx, fx) => {
      await deviceOr404(tx, org, payload.deviceSn);
      if (appointmentId) {
        const a = await appointmentOr404(tx, org, appointmentId, "body.appointmentId");
        const [e] = await addExaminations(tx, fx, org, a, [payload], now, "examination");
        if (a.trashedAt === null) fx.laneChanged(a.deviceSn);
        fx.event(org, "appointment", "update", (await store.getAppointment(tx, org, a.id))!, a.deviceSn);
        return e!;
      }
      const [e] = await addExaminations(
        tx,
        fx,
        org,
        { id: null, patientId: payload.patientId, deviceSn: payload.deviceSn },
        [payload],
        now,
        "examination",
      );
      return e!;
    });
    return { data };
  },
  "examination.update": async (call) => {
    const org = claimsOf(call).organisationId;
    const body = call.body;
    if (body.id !== call.query.id) throw invalid("body.id", "the body's id must be the query's id");
    const data = await write(call.ctx, async (tx, fx) => {
      const e = await examinationOr404(tx, org, call.query.id);
      let next: Examination;
      if ("type" in body) {
        if (e.taken) throw invalid("body.taken", "the examination has been taken: only notes can change");
        const patient = await patientOr404(tx, org, body.patientId);
        await deviceOr404(tx, org, body.deviceSn);
        checkPayload(body, "", body.patientId, patient.lang, await multiTestsOf(tx, org), false);
        if (body.eye === Eye.Both) throw invalid("body.eye", "'Both eyes' is offered only when creating");
        next = {
          ...e,
          type: body.type,
          eye: body.eye,
          notes: body.notes,
          config: body.config,
          patientId: body.patientId,
          updatedAt: nowIso(call.ctx),
        };
      } else {
        if (body.notes.length > 256) throw invalid("body.notes", "at most 256 characters");
        next = { ...e, notes: body.notes, updatedAt: nowIso(call.ctx) };
      }
      await exams.saveExamination(tx, org, next);
      if (!e.taken && e.appointmentId) fx.laneChanged(e.deviceSn);
      fx.event(org, "examination", "update", next, next.deviceSn);
      return next;
    });
    return { data };
  },
  "examination.trash": async (call) => {
    const org = claimsOf(call).organisationId;
    const data = await write(call.ctx, async (tx, fx) => {
      const e = await examinationOr404(tx, org, call.query.id);
      if (e.trashedAt !== null) return e;
      const trashed = { ...e, trashedAt: nowIso(call.ctx) };
      await exams.saveExamination(tx, org, trashed);
      if (!e.taken && e.appointmentId) fx.laneChanged(e.deviceSn);
      fx.event(org, "examination", "trash", { id: trashed.id }, e.deviceSn);
      return trashed;
    });
    return { data };
  },
  "examination.delete": async (call) => {
    const org = claimsOf(call).organisationId;
    await write(call.ctx, async (tx, fx) => {
      const e = await examinationOr404(tx, org, call.query.id);
      await exams.deleteExamination(tx, org, e.id);
      if (!e.taken && e.appointmentId) fx.laneChanged(e.deviceSn);
      fx.event(org, "examination", "delete", { id: e.id }, e.deviceSn);
    });
    return { data: { id: call.query.id } };
  },
};
