import { commandForWantedStatus, isTestRunning } from "../../../core/device/status.ts";
import { DeviceStatus } from "../../../core/model/enums.ts";
import type { StandaloneData } from "../../../core/model/device.ts";
import type { StandaloneConfig } from "../../../core/model/measurement.ts";
import { checkMove, type Card, type Lane, type MoveCheck } from "../../../core/scheduling/index.ts";
import { claimsOf, type SomeHandlers } from "../http/handler.ts";
import { Failure, invalid, notFound } from "../http/failure.ts";
import type { Queryable } from "../db/database.ts";
import * as devices from "../store/devices.ts";
import { appointmentQueueOf } from "../store/appointments.ts";
import { newId } from "../store/ids.ts";
import { getMeasurement, queueOf } from "../store/measurements.ts";
import { getPatient } from "../store/patients.ts";
import { boundProgramme } from "../store/home.ts";
import { checkMeasurementConfig } from "./measurement-rules.ts";
import { multiTestsOf } from "./organisation-flags.ts";
import { nowIso, write } from "./write.ts";

// Devices: scheduling §7 "Devices". Lanes are ordered lists of queued measurements (or appointments); a drop sends the
// new order of both lanes with the revisions it was read at, and a stale revision is answered 409.

const deviceOr404 = async (q: Queryable, org: string, id: string, field = "query.id") => {
  const d = await devices.deviceById(q, org, id);
  if (!d) throw notFound("Device", field);
  return d;
};

/** A drop's two devices (404 naming body.from / body.to), locked and read again under the lock. */
const lockedLanes = async (q: Queryable, org: string, fromId: string, toId: string) => {
  const fromDevice = await deviceOr404(q, org, fromId, "body.from.deviceId");
  const toDevice = await deviceOr404(q, org, toId, "body.to.deviceId");
  await devices.lockDevices(q, [fromDevice.deviceSn, toDevice.deviceSn]);
  return [(await devices.deviceById(q, org, fromDevice.id))!, (await devices.deviceById(q, org, toDevice.id))!] as const;
};

/** A lane as core/scheduling sees it: the queue, and whether its first card is the running item (scheduling §4). */
const laneOf = <C extends Card>(d: devices.DeviceRow, items: readonly C[]): Lane<C> => ({
  deviceId: d.id,
  revision: d.revision,
  running: isTestRunning({ hasLiveProgress: false, connection: d.connection, status: d.status }),
  items,
});

/** A drag that is not one move of one card (core/scheduling checkMove) is answered 409 with the field that is wrong: the
 * client's view of the lanes is not the server's, and core/client refetches on a conflict. */
const refusedMove = (
  check: Extract<MoveCheck, { ok: false }>,
  type: "device_revision_conflict" | "conflict",
  list: string,
  moved: string,
) =>
  new Failure(type, check.reason, check.field === "moved" ? `body.${moved}` : `body.${check.field === "source" ? "from" : "to"}.${list}`);

const standaloneData = async (q: Queryable, org: string, id: string): Promise<StandaloneData | undefined> => {
  const rows = await q.query<{ id: string; device_sn: string; body: StandaloneConfig; created_at: string }>(
    "select id, device_sn, body, created_at from standalone_configs where organisation_id = $1 and id = $2",
    [org, id],
  );
  const r = rows[0];
  return r ? { id: r.id, deviceSn: r.device_sn, config: r.body, createdAt: r.created_at } : undefined;
};

export const deviceHandlers: SomeHandlers<
  | "device.all"
  | "device.update"
  | "device.standalone"
  | "device.standaloneData"
  | "device.dragAndDropPerimetry"
  | "device.dragAndDropAppointment"
> = {
  "device.all": async (call) => {
    const org = claimsOf(call).organisationId;
    const data = await call.ctx.db.snapshot((q) => devices.devicesWithQueues(q, org, (row) => call.ctx.presence.overlay(row)));
    // The patients on the lanes, named here: the audit's generic walk through a thousand devices cost more than this.
    const patientsRead = new Set<string>();
    for (const d of data) {
      for (const m of d.perimetries) patientsRead.add(m.patientId);
      for (const a of d.appointments ?? []) patientsRead.add(a.patientId);
    }
    return { data, patientsRead: [...patientsRead] };
  },
  "device.update": async (call) => {
    const org = claimsOf(call).organisationId;
    const body = call.body;
    const d = await deviceOr404(call.ctx.db, org, call.query.id);
    if ("alias" in body) {
      const alias = body.alias.trim();
      if (alias === "") throw invalid("body.alias", "This field is required.");
      const data = await write(call.ctx, async (tx, fx) => {
        await devices.setAlias(tx, d.id, alias);
        const row = (await devices.deviceById(tx, org, d.id))!;
        fx.event(org, "device", "update", devices.deviceChange(call.ctx.presence.overlay(row)), d.deviceSn);
        return devices.withQueues(tx, org, row);
      });
      return { data };
    }
    const wanted = body.status;
    if (wanted !== DeviceStatus.Playing && wanted !== DeviceStatus.Paused && wanted !== DeviceStatus.Stopped)
      throw invalid("body.status", "only playing, paused or stopped can be asked of a device");
    await call.ctx.devices.command(d.deviceSn, commandForWantedStatus(d.status, wanted));
    return { data: await devices.withQueues(call.ctx.db, org, (await devices.deviceById(call.ctx.db, org, d.id))!) };
  },
  "device.standalone": async (call) => {
    const org = claimsOf(call).organisationId;
    const sn = call.query.deviceSn;
    const config = call.body;
    const now = nowIso(call.ctx);
    const result = await write(call.ctx, async (tx, fx) => {
      await devices.lockDevices(tx, [sn]);
      const d = await devices.deviceBySn(tx, org, sn);
      if (!d) throw notFound("Device", "query.deviceSn");
      // A headset lent for a home programme repeats the programme's test until it is returned (issue 31).
      if (await boundProgramme(tx, sn))
        throw new Failure("conflict", `Headset ${sn} is lent for a home programme; end the programme first`, "query.deviceSn");
      // "Stand-alone mode cannot change while another measurement runs." (scheduling §5) Turning it off is taken at any
      // time (issue 21: it could hardly be switched off, the headset restarting within seconds): the headset lets the
      // repetition under way finish and upload, then starts no other.
      if (config !== null && isTestRunning({ hasLiveProgress: false, connection: d.connection, status: d.status }))
        throw new Failure("device_busy", "Stand-alone mode cannot change while another measurement runs");
      let data: StandaloneData | null = null;
      if (config === null) {
        await devices.setStandaloneId(tx, sn, null);
      } else {
        const patient = await getPatient(tx, org, config.patientId);
        if (!patient || patient.trashedAt !== null) throw notFound("Patient", "body.patientId");
        checkMeasurementConfig({ ...config, deviceSn: sn, notes: "" }, "standalone", patient.lang, await multiTestsOf(tx, org));
        const id = newId();
        await tx.query("insert into standalone_configs (id, organisation_id, device_sn, body, created_at) values ($1, $2, $3, $4, $5)", [
          id,
          org,
          sn,
          JSON.stringify(config),
          now,
        ]);
        await devices.setStandaloneId(tx, sn, id);
        data = { id, deviceSn: sn, config, createdAt: now };
      }
      fx.standaloneChanged(sn);
      fx.event(org, "device", "update", devices.deviceChange(call.ctx.presence.overlay((await devices.deviceBySn(tx, org, sn))!)), sn);
      return data;
    });
    return result === null ? { data: null, responseType: "device_standalone_unset" } : { data: result };
  },
  "device.standaloneData": async (call) => {
    const data = await standaloneData(call.ctx.db, claimsOf(call).organisationId, call.query.id);
    if (!data) throw notFound("Stand-alone data");
    return { data };
  },
  "device.dragAndDropPerimetry": async (call) => {
    const org = claimsOf(call).organisationId;
    const { movedPerimetryId, from, to } = call.body;
    const data = await write(call.ctx, async (tx, fx) => {
      // The revisions compared are the committed ones.
      const [f, t] = await lockedLanes(tx, org, from.deviceId, to.deviceId);
      if (f.revision !== from.revision || t.revision !== to.revision)
        throw new Failure(
          "device_revision_conflict",
          "The lanes changed meanwhile; refetch the devices",
          f.revision !== from.revision ? "body.from.revision" : "body.to.revision",
        );
      if (!(await getMeasurement(tx, org, movedPerimetryId))) throw notFound("Measurement", "body.movedPerimetryId");
      const sameLane = f.id === t.id;
      const fromLane = laneOf(f, await queueOf(tx, org, f.deviceSn));
      const toLane = sameLane ? fromLane : laneOf(t, await queueOf(tx, org, t.deviceSn));
      const check = checkMove(
        { from: fromLane, to: toLane },
        { movedId: movedPerimetryId, from: from.perimetriesIds, to: to.perimetriesIds },
      );
      if (!check.ok) throw refusedMove(check, "device_revision_conflict", "perimetriesIds", "movedPerimetryId");
      const fromBefore = fromLane.items.map((m) => m.id);
      const place = async (sn: string, ids: ReadonlyArray<string>) => {
        for (const [i, id] of ids.entries())
          await tx.query("update measurements set device_sn = $2, queue_position = $3 where id = $1", [id, sn, i + 1]);
      };
      if (!sameLane) await place(f.deviceSn, from.perimetriesIds);
      await place(t.deviceSn, to.perimetriesIds);
      fx.laneChanged(f.deviceSn);
      fx.laneChanged(t.deviceSn);
      if (!sameLane)
        for (const _moved of to.perimetriesIds.filter((id) => fromBefore.includes(id))) {
          fx.event(org, "measurement", "device_transfer_out", { deviceSn: f.deviceSn }, f.deviceSn);
          fx.event(org, "measurement", "device_transfer_in", { deviceSn: t.deviceSn }, t.deviceSn);
        }
      // write() bumps each changed lane once after this, under the same lock.
      const revisions = { from: { deviceId: f.id, revision: f.revision + 1 }, to: { deviceId: t.id, revision: t.revision + 1 } };
      fx.event(org, "drag_and_drop", "update", revisions);
      return revisions;
    });
    return { data };
  },
  "device.dragAndDropAppointment": async (call) => {
    const org = claimsOf(call).organisationId;
    const { movedAppointmentId, from, to } = call.body;
    const data = await write(call.ctx, async (tx, fx) => {
      // The running state checked is the committed one.
      const [f, t] = await lockedLanes(tx, org, from.deviceId, to.deviceId);
      const sameLane = f.id === t.id;
      const fromLane = laneOf(f, await appointmentQueueOf(tx, org, f.deviceSn));
      const toLane = sameLane ? fromLane : laneOf(t, await appointmentQueueOf(tx, org, t.deviceSn));
      if (![...fromLane.items, ...toLane.items].some((a) => a.id === movedAppointmentId))
        throw notFound("Appointment", "body.movedAppointmentId");
      const check = checkMove(
        { from: fromLane, to: toLane },
        { movedId: movedAppointmentId, from: from.appointmentsIds, to: to.appointmentsIds },
      );
      if (!check.ok) throw refusedMove(check, "conflict", "appointmentsIds", "movedAppointmentId");
      const place = async (sn: string, ids: ReadonlyArray<string>) => {
        for (const [i, id] of ids.entries()) {
          await tx.query("update appointments set device_sn = $2, queue_position = $3 where id = $1", [id, sn, i + 1]);
          await tx.query("update examinations set device_sn = $2 where appointment_id = $1", [id, sn]);
        }
      };
      if (!sameLane) await place(f.deviceSn, from.appointmentsIds);
      await place(t.deviceSn, to.appointmentsIds);
      fx.laneChanged(f.deviceSn);
      fx.laneChanged(t.deviceSn);
      if (!sameLane) {
        fx.event(org, "appointment", "device_transfer_out", { deviceSn: f.deviceSn }, f.deviceSn);
        fx.event(org, "appointment", "device_transfer_in", { deviceSn: t.deviceSn }, t.deviceSn);
      }
      const [fr, tr] = [(await devices.deviceById(tx, org, f.id))!, (await devices.deviceById(tx, org, t.id))!];
      const revisions = { from: { deviceId: f.id, revision: fr.revision + 1 }, to: { deviceId: t.id, revision: tr.revision + 1 } };
      fx.event(org, "drag_and_drop", "update", revisions);
      return revisions;
    });
    return { data };
  },
};
