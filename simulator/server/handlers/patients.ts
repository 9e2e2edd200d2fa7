import type { PatientFields } from "../../../core/model/patient.ts";
import { validateBirthdate } from "../../../core/rules/birthdate.ts";
import { validateTextInput } from "../../../core/rules/text-input.ts";
import { claimsOf, type SomeHandlers } from "../http/handler.ts";
import { Failure, invalid, notFound } from "../http/failure.ts";
import type { Queryable } from "../db/database.ts";
import { endBindingIn } from "../home/binding.ts";
import { lockDevices } from "../store/devices.ts";
import { newId } from "../store/ids.ts";
import * as patients from "../store/patients.ts";
import { nowIso, write, type Effects } from "./write.ts";

// Patients: scheduling §7 "Patients", accounts §7. Lifecycle: active -> trashed (bin) -> restored, or deleted for good.
// A trashed patient's measurements and appointments leave the device lanes (their devices' revisions move on) and come
// back on restore.

/** The patient form's rules on the server (accounts §5): trimmed name and uniqueId, text rule, birthdate window. */
const checkedFields = (fields: PatientFields, today: string): PatientFields => {
  const name = fields.name.trim();
  const uniqueId = fields.uniqueId.trim();
  for (const [field, value] of [
    ["name", name],
    ["uniqueId", uniqueId],
  ] as const) {
    if (value === "") throw invalid(`body.${field}`, "This field is required.");
    const problem = validateTextInput(value);
    if (problem) throw invalid(`body.${field}`, problem.text);
  }
  const birthdate = validateBirthdate(fields.birthdate, today);
  if (birthdate) throw invalid("body.birthdate", birthdate.text);
  return { ...fields, name, uniqueId };
};

const uniqueIdTaken = async (tx: Queryable, org: string, uniqueId: string, except: string | null) =>
  (
    await tx.query("select 1 from patients where organisation_id = $1 and body->>'uniqueId' = $2 and id <> coalesce($3, '')", [
      org,
      uniqueId,
      except,
    ])
  ).length > 0;

/** Devices whose lanes hold this patient's queued measurements or appointments. */
const lanesOfPatient = async (tx: Queryable, patientId: string): Promise<string[]> =>
  (
    await tx.query<{ sn: string }>(
      `select distinct device_sn as sn from measurements where patient_id = $1 and device_sn is not null and result is null and trashed_at is null
       union select distinct device_sn as sn from appointments where patient_id = $1 and device_sn is not null and trashed_at is null`,
      [patientId],
    )
  ).map((r) => r.sn);

const bumpLanes = (fx: Effects, sns: string[]) => sns.forEach((sn) => fx.laneChanged(sn));

const today = (now: string) => now.slice(0, 10);

/**
 * Trashing a patient ends their active home programme in the trash's transaction (issue 31 §5: nothing of a binned
 * patient is written from the commit on): the lent headset's setting is cleared (home/binding.ts endBindingIn) and
 * its uploads refused as from an ended programme. Our choice of reason: "ended", the clinic's own act of ending, as a
 * clinician ending it is (the trash call itself is the audit trail's record of why); restoring the patient does not
 * start it again: the clinic lends the headset anew if it wants the monitoring back.
 */
const endHomeProgrammesOf = async (tx: Queryable, fx: Effects, org: string, patientId: string, now: string) => {
  const active = await tx.query<{ device_sn: string }>(
    "select device_sn from home_programmes where organisation_id = $1 and patient_id = $2 and state = 'active'",
    [org, patientId],
  );
  for (const { device_sn: sn } of active) {
    await lockDevices(tx, [sn]);
    if (!(await endBindingIn(tx, sn, "ended", now))) continue;
    fx.standaloneChanged(sn);
    fx.laneChanged(sn);
  }
};

export const patientHandlers: SomeHandlers<
  | "patient.get"
  | "patient.all"
  | "patient.search"
  | "patient.register"
  | "patient.update"
  | "patient.restore"
  | "patient.trash"
  | "patient.delete"
  | "patient.allTrashed"
> = {
  "patient.get": async (call) => {
    const p = await patients.getPatient(call.ctx.db, claimsOf(call).organisationId, call.query.id);
    if (!p) throw notFound("Patient");
    return { data: p };
  },
  "patient.all": async (call) => ({ data: await patients.listPatients(call.ctx.db, claimsOf(call).organisationId, false) }),
  "patient.allTrashed": async (call) => ({ data: await patients.listPatients(call.ctx.db, claimsOf(call).organisationId, true) }),
  "patient.search": async (call) => {
    const { filter, page, quantity } = call.body;
    if (page < 0) throw invalid("body.page", "must be 0 or more");
    if (quantity < 1 || quantity > 500) throw invalid("body.quantity", "must be between 1 and 500");
    const found = await call.ctx.patientIndex.search(claimsOf(call).organisationId, {
      name: filter.name,
      birthdate: filter.birthdate,
      page: page + 1,
      quantity,
    });
    return { data: { ...found, page } };
  },
  "patient.register": async (call) => {
    const org = claimsOf(call).organisationId;
    const now = nowIso(call.ctx);
    const fields = checkedFields(call.body, today(now));
    const id = newId();
    const created = await write(call.ctx, async (tx, fx) => {
      if (await uniqueIdTaken(tx, org, fields.uniqueId, null))
        throw new Failure("conflict", "uniqueId: another patient has this ID", "body.uniqueId");
      await patients.insertPatient(tx, org, id, fields, now);
      const p = (await patients.getPatient(tx, org, id))!;
      fx.event(org, "patient", "insert", p);
      return p;
    });
    return { data: created };
  },
  "patient.update": async (call) => {
    const org = claimsOf(call).organisationId;
    const now = nowIso(call.ctx);
    const fields = checkedFields(call.body, today(now));
    const updated = await write(call.ctx, async (tx, fx) => {
      if (!(await patients.getPatient(tx, org, call.query.id))) throw notFound("Patient");
      if (await uniqueIdTaken(tx, org, fields.uniqueId, call.query.id))
        throw new Failure("conflict", "uniqueId: another patient has this ID", "body.uniqueId");
      await patients.updatePatient(tx, org, call.query.id, fields, now);
      const p = (await patients.getPatient(tx, org, call.query.id))!;
      fx.event(org, "patient", "update", p);
      return p;
    });
    return { data: updated };
  },
  "patient.trash": async (call) => {
    const org = claimsOf(call).organisationId;
    const data = await write(call.ctx, async (tx, fx) => {
      const p = await patients.getPatient(tx, org, call.query.id);
      if (!p) throw notFound("Patient");
      if (p.trashedAt !== null) return p;
      const lanes = await lanesOfPatient(tx, p.id);
      await endHomeProgrammesOf(tx, fx, org, p.id, nowIso(call.ctx)); // the headset's row locked first, as uploads do
      await patients.setPatientTrashed(tx, org, p.id, nowIso(call.ctx));
      bumpLanes(fx, lanes);
      const trashed = (await patients.getPatient(tx, org, p.id))!;
      fx.event(org, "patient", "trash", { id: trashed.id });
      return trashed;
    });
    return { data };
  },
  "patient.restore": async (call) => {
    const org = claimsOf(call).organisationId;
    const data = await write(call.ctx, async (tx, fx) => {
      const p = await patients.getPatient(tx, org, call.query.id);
      if (!p) throw notFound("Patient");
      if (p.trashedAt === null) return p;
      await patients.setPatientTrashed(tx, org, p.id, null);
      bumpLanes(fx, await lanesOfPatient(tx, p.id));
      const restored = (await patients.getPatient(tx, org, p.id))!;
      fx.event(org, "patient", "restore", restored);
      return restored;
    });
    return { data };
  },
  "patient.delete": async (call) => {
    const org = claimsOf(call).organisationId;
    await write(call.ctx, async (tx, fx) => {
      const p = await patients.getPatient(tx, org, call.query.id);
      if (!p) throw notFound("Patient");
      const lanes = p.trashedAt === null ? await lanesOfPatient(tx, p.id) : [];
      await patients.deletePatient(tx, org, p.id); // measurements, appointments, examinations cascade
      bumpLanes(fx, lanes);
      fx.event(org, "patient", "delete", { id: p.id });
    });
    return { data: { id: call.query.id } };
  },
};
