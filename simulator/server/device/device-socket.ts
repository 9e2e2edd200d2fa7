import type { WebSocket } from "ws";
import { Result } from "effect";
import { frame, PROTOCOL_VERSION, readHeadsetFrame, type HeadsetMessage, type RefusalReason } from "../../../core/device/protocol.ts";
import { DEVICE_DISCONNECT_TIMEOUT_MS } from "../../../core/device/connection.ts";
import type { DeviceBattery } from "../../../core/model/device.ts";
import type { ServerContext } from "../context.ts";
import { deviceBySnAnywhere, deviceChange, recordLiveState, type DeviceRow } from "../store/devices.ts";
import { getExamination, saveExamination } from "../store/examinations.ts";
import { completeMeasurement, recordStandaloneOnce } from "../handlers/results.ts";
import { nowIso, write } from "../handlers/write.ts";
import { Failure } from "../http/failure.ts";
import { log } from "../log.ts";
import { admit, stillAdmitted } from "./handshake.ts";
import { isDatabaseUnavailable } from "../db/faults.ts";
import { LENT, receiveHomeResult, refusedWhileLent } from "../home/uploads.ts";
import { programmeOfStandalone } from "../store/home.ts";
import { watchSilence } from "./silence-watch.ts";

// /device: one headset's socket (core/device/protocol.ts). The headset says hello with its serial and its credential
// or pairing code (handshake.ts decides); the server answers welcome, its queue and stand-alone setting, or refused and
// closes. A headset delivers results only for what is queued on it and its own stand-alone runs. Statuses, connection
// changes and results update the database and go out as live events to the browsers of the device's organisation;
// heartbeats (battery, last seen) stay in memory (presence.ts) and progress is fanned out as it comes, neither waits for
// the database. Messages are handled one at a time in arrival order.

const batteryOf = (b: { vr: number | null; clicker: number | null; vrCharging: boolean; clickerCharging: boolean }): DeviceBattery => ({
  vr: { level: b.vr, charging: b.vrCharging },
  clicker: { level: b.clicker, charging: b.clickerCharging },
});

/** Half the browsers' 4 s disconnect rule: a heartbeat reaches them at least this often, two in every window. */
const LIVENESS_ANNOUNCE_MS = DEVICE_DISCONNECT_TIMEOUT_MS / 2;

export const acceptDeviceSocket = (ctx: ServerContext, socket: WebSocket, address = "unknown address") => {
  let device: DeviceRow | undefined;
  let chain = Promise.resolve();
  // "A heartbeat marks a device connected ... No heartbeat for 4 s marks it disconnected." (scheduling §4)
  let lastHeard = ctx.now();
  let silent = false;
  /** When browsers last heard that this headset is alive (a heartbeat they were told of). */
  let announcedAt = Number.NEGATIVE_INFINITY;
  /** The status the headset last reported on this connection, repeated with each announcement (see the heartbeat). */
  let reportedStatus: Extract<HeadsetMessage, { type: "status" }>["status"] | undefined;
  const setConnection = async (connection: "CONNECTED" | "DISCONNECTED") => {
    if (!device) return;
    // The status stays as last reported; the socket closing is what sets notconnected.
    await ctx.db.transaction((tx) => recordLiveState(tx, device!.deviceSn, { ...ctx.presence.heard(device!.deviceSn), connection }));
    await announceConnection(ctx, device.organisationId, device.deviceSn, connection);
  };
  const unwatch = watchSilence(ctx, () => {
    if (!device || silent || ctx.now() - lastHeard < ctx.settings.deviceSilenceMs) return;
    silent = true;
    chain = chain.then(() => setConnection("DISCONNECTED")).catch(() => undefined);
  });

  const publishDevice = async () => {
    if (device) await announceDevice(ctx, device.deviceSn);
  };

  /** The headset's side of the audit trail (issue 15 §6): admissions, refusals and results, by serial. */
  const audit = (
    organisationId: string | null,
    sn: string | undefined,
    action: string,
    outcome: string,
    record?: { type: string; id: string },
  ) =>
    ctx.audit.record({
      organisationId,
      at: nowIso(ctx),
      actorKind: "headset",
      actorId: sn ?? null,
      actorName: sn ?? null,
      address,
      action,
      outcome,
      recordType: record?.type ?? null,
      recordId: record?.id ?? null,
    });

  let refused = false;
  const refuse = (reason: RefusalReason, message: string, sn?: string) => {
    refused = true;
    log.warn("device_refused", { device: sn, from: address, reason, message });
    void (sn ? deviceBySnAnywhere(ctx.db, sn) : Promise.resolve(undefined)).then(
      (row) => audit(row?.organisationId ?? null, sn, "device.hello", reason),
      () => undefined,
    );
    socket.send(frame({ type: "refused", reason, message }));
    socket.close(4002, reason);
  };

  const hello = async (m: Extract<HeadsetMessage, { type: "hello" }>) => {
    if (device) return; // one hello per connection; a second one is ignored
    const proof = m.credential !== undefined ? { credential: m.credential } : { pairingCode: m.pairingCode ?? "" };
    const admission = await admit(ctx, m.deviceSn, proof, await ctx.devices.liveCredential(m.deviceSn));
    if (!admission.ok) return refuse(admission.reason, admission.message, m.deviceSn);
    const row = await deviceBySnAnywhere(ctx.db, m.deviceSn);
    if (!row) return refuse("unknown-device", `No headset ${m.deviceSn} is enrolled with this server`, m.deviceSn);
    await ctx.devices.attach(row.deviceSn, socket, admission.credentialHash);
    // Revoked or enrolled again between the check and the attach: that change's close found no socket to close.
    if (!(await stillAdmitted(ctx, row.deviceSn, admission.credentialHash))) {
      ctx.devices.detach(row.deviceSn, socket);
      return refuse("revoked", `Headset ${row.deviceSn} was revoked or enrolled again`, row.deviceSn);
    }
    device = row;
    audit(row.organisationId, row.deviceSn, admission.issuedCredential !== null ? "device.pair" : "device.hello", "success");
    if (admission.issuedCredential !== null) {
      log.info("device_paired", { device: row.deviceSn, from: address });
      socket.send(frame({ type: "enrolled", deviceSn: row.deviceSn, credential: admission.issuedCredential }));
    }
    return row;
  };

  const handle = async (m: HeadsetMessage) => {
    if (m.type === "hello") {
      const row = await hello(m);
      if (!row) return;
      await ctx.db.transaction((tx) => recordLiveState(tx, row.deviceSn, { connection: "CONNECTED", lastSeen: nowIso(ctx) }));
      socket.send(
        frame({
          type: "welcome",
          protocolVersion: PROTOCOL_VERSION,
          deviceSn: row.deviceSn,
          alias: row.alias,
          serverTime: ctx.now(),
          route: row.organisationId,
        }),
      );
      await ctx.devices.pushQueue(row.deviceSn);
      await ctx.devices.pushStandalone(row.deviceSn);
      ctx.live.publish(row.organisationId, {
        type: "connection",
        operation: "update",
        data: { deviceSn: row.deviceSn, connection: "CONNECTED" },
        deviceSn: row.deviceSn,
      });
      return publishDevice();
    }
    if (!device) return refuse("malformed", "Say hello first");
    const sn = device.deviceSn;
    const org = device.organisationId;
    if (
      (m.type === "result" || m.type === "examinationResult" || m.type === "standaloneResult") &&
      (await refusedWhileLent(ctx, sn, m, address))
    ) {
      if (m.type === "standaloneResult") socket.send(frame({ type: "resultAccepted", resultId: m.resultId, refused: LENT }));
      return;
    }
    switch (m.type) {
      case "heartbeat": {
        // In memory only (presence.ts); connection changes are the silence watchdog's and the socket's (written at
        // once). Browsers hear of a battery change at once. They also apply the 4 s rule themselves (core/device/connection.ts), so they hear that the headset is alive
        // at least every LIVENESS_ANNOUNCE_MS: a change that repeats what they show, so nothing re-renders for it. It
        // repeats the reported status too: a device list a browser fetched while a status was being stored would
        // otherwise leave it showing the older status until the next one.
        const battery = batteryOf(m.battery);
        const lastSeen = nowIso(ctx);
        const batteryChanged = ctx.presence.heartbeat(sn, battery, lastSeen);
        if (!batteryChanged && ctx.now() - announcedAt < LIVENESS_ANNOUNCE_MS) return;
        announcedAt = ctx.now();
        const alive = {
          deviceSn: sn,
          connection: "CONNECTED" as const,
          ...(reportedStatus !== undefined ? { status: reportedStatus } : {}),
        };
        const data = batteryChanged ? { ...alive, battery, lastSeen } : alive;
        ctx.live.publish(org, { type: "device", operation: "update", data, deviceSn: sn });
        return;
      }
      case "status":
        reportedStatus = m.status;
        await ctx.db.transaction((tx) => recordLiveState(tx, sn, { status: m.status, lastSeen: nowIso(ctx) }));
        return publishDevice();
      case "progress": {
        // The headset reports the running test in the model's words: passed on as it is.
        const { type: _, ...progress } = m;
        const data = { deviceSn: sn, ...progress };
        ctx.live.publish(
          org,
          (progress.examinationId ?? null) !== null
            ? { type: "examination", operation: "examination_progress", data, deviceSn: sn }
            : { type: "measurement", operation: "measurement_progress", data, deviceSn: sn },
        );
        return;
      }
      case "ack":
        return ctx.devices.acknowledge(sn, m.commandId, m.ok, m.error);
      case "result":
        try {
          await write(ctx, (tx, fx) => completeMeasurement(tx, fx, org, m.measurementId, m.result, nowIso(ctx), sn));
          audit(org, sn, "device.result", "success", { type: "measurement", id: m.measurementId });
        } catch (e) {
          // A repeated upload, a measurement deleted meanwhile, or one not queued on this headset: nothing to store.
          if (!(e instanceof Failure)) throw e;
          audit(org, sn, "device.result", e.type, { type: "measurement", id: m.measurementId });
          if (e.type === "not_found")
            log.warn("device_result_refused", { device: sn, measurement: m.measurementId, reason: "not queued on this headset" });
        }
        return;
      case "examinationResult": {
        await write(ctx, async (tx, fx) => {
          const e = await getExamination(tx, org, m.examinationId);
          if (!e || e.deviceSn !== sn || e.appointmentId !== m.appointmentId) {
            audit(org, sn, "device.examinationResult", "not_found", { type: "examination", id: m.examinationId });
            log.warn("device_result_refused", { device: sn, examination: m.examinationId, reason: "not queued on this headset" });
            return;
          }
          if (e.taken) return;
          // The outcome was decoded against its test type's result schema; it must be this examination's type.
          if (e.type !== m.outcome.type) {
            log.warn("examination_result_dropped", { device: sn, examination: e.id, expected: e.type, got: m.outcome.type });
            return;
          }
          const done = { ...e, taken: true, result: m.outcome.result, updatedAt: nowIso(ctx) };
          await saveExamination(tx, org, done, m.outcome.result.takenAt);
          audit(org, sn, "device.examinationResult", "success", { type: "examination", id: e.id });
          fx.laneChanged(sn);
          fx.event(org, "examination", "measurement_result_ready", done, sn);
        });
        return;
      }
      case "standaloneResult": {
        // A home programme's test (issue 31): checked, stored once per session and audited there (home/uploads.ts).
        const programme = await programmeOfStandalone(ctx.db, sn, m.standaloneId);
        if (programme) {
          const outcome = await receiveHomeResult(ctx, programme, sn, m, address);
          const refused = outcome.kind === "refused" ? { refused: outcome.reason } : {};
          socket.send(frame({ type: "resultAccepted", resultId: m.resultId, ...refused }));
          return;
        }
        await write(ctx, (tx, fx) => recordStandaloneOnce(tx, fx, org, sn, m.standaloneId, m.resultId, m.result, nowIso(ctx))).catch(
          (e) => {
            // Stand-alone data gone, or not this headset's: accept and drop, the headset cannot do better.
            if (!(e instanceof Failure)) throw e;
            log.warn("device_result_refused", { device: sn, standalone: m.standaloneId, reason: e.message });
          },
        );
        socket.send(frame({ type: "resultAccepted", resultId: m.resultId }));
        return;
      }
      case "clickerDisconnected": {
        // "Clicker disconnected | test stopped message" (scheduling §8): the browsers say which test stopped; the
        // headset's status stopped follows as a device update.
        const { type: _, ...stopped } = m;
        ctx.live.publish(org, { type: "device", operation: "clicker_disconnected", data: { deviceSn: sn, ...stopped }, deviceSn: sn });
        return;
      }
    }
  };

  socket.on("message", (raw) => {
    const decoded = readHeadsetFrame(raw.toString());
    lastHeard = ctx.now();
    chain = chain
      .then(async () => {
        if (refused) return; // nothing after a refusal is read
        if (silent && device) {
          silent = false;
          await setConnection("CONNECTED");
        }
        if (Result.isFailure(decoded)) {
          const text = decoded.failure.message;
          const versionProblem = !device && decoded.failure.field === "protocolVersion";
          if (!device) return refuse(versionProblem ? "protocol-version" : "malformed", text);
          return; // a malformed frame from a known headset is dropped; the next heartbeat or status corrects the state
        }
        await handle(decoded.success);
      })
      .catch((e) => {
        // The database away: the headset keeps its results in its outbox and sends them again; one before its welcome
        // is asked to come back later (1013 try again later). The pool logs the outage once.
        if (isDatabaseUnavailable(e)) {
          if (!device) socket.close(1013, "database unavailable");
          return;
        }
        log.warn("device_message_failed", { device: device?.deviceSn, error: e });
      });
  });
  socket.on("close", () => {
    unwatch();
    chain = chain.then(async () => {
      if (!device) return;
      ctx.devices.detach(device.deviceSn, socket);
      if (!(await ctx.devices.release(device.deviceSn))) return; // a newer connection took over, here or on another process
      const heard = ctx.presence.heard(device.deviceSn);
      await ctx.db
        .transaction((tx) => recordLiveState(tx, device!.deviceSn, { ...heard, connection: "DISCONNECTED", status: "notconnected" }))
        .catch(() => undefined);
      await announceConnection(ctx, device.organisationId, device.deviceSn, "DISCONNECTED").catch(() => undefined);
    });
  });
  socket.on("error", () => socket.terminate());
};

/** Headsets whose process died or left (bus/roster.ts): recorded disconnected, unless one connected again meanwhile,
 * and the organisations' browsers are told, as the closing socket would have. */
export const disconnectOrphans = async (ctx: ServerContext, deviceSns: ReadonlyArray<string>) => {
  const rows = await ctx.db.query<{ device_sn: string }>(
    `update devices set connection = 'DISCONNECTED', status = 'notconnected'
     where device_sn = any($1::text[]) and device_sn not in (select device_sn from device_presence) returning device_sn`,
    [deviceSns],
  );
  for (const { device_sn: sn } of rows) {
    const row = await deviceBySnAnywhere(ctx.db, sn);
    if (!row) continue;
    ctx.live.publish(row.organisationId, connectionEvent(sn, "DISCONNECTED"));
    ctx.live.publish(row.organisationId, deviceEvent(ctx, row));
  }
};

/** This process's headsets after its lease was taken away and given back: connected again, as their hello said. */
export const reconnectHeld = async (ctx: ServerContext) => {
  for (const sn of await ctx.devices.reclaim()) {
    await ctx.db.transaction((tx) => recordLiveState(tx, sn, { connection: "CONNECTED" }));
    const row = await deviceBySnAnywhere(ctx.db, sn);
    if (!row) continue;
    ctx.live.publish(row.organisationId, connectionEvent(sn, "CONNECTED"));
    ctx.live.publish(row.organisationId, deviceEvent(ctx, row));
  }
};

type StoredDevice = NonNullable<Awaited<ReturnType<typeof deviceBySnAnywhere>>>;

const connectionEvent = (sn: string, connection: "CONNECTED" | "DISCONNECTED") =>
  ({ type: "connection", operation: "update", data: { deviceSn: sn, connection }, deviceSn: sn }) as const;
/** The stored device with the presence heard since. */
const deviceEvent = (ctx: ServerContext, row: StoredDevice) =>
  ({ type: "device", operation: "update", data: deviceChange(ctx.presence.overlay(row)), deviceSn: row.deviceSn }) as const;

/** Tells the organisation's browsers the headset's connection and then its device as stored (read again: fresh). */
const announceConnection = async (ctx: ServerContext, organisationId: string, sn: string, connection: "CONNECTED" | "DISCONNECTED") => {
  ctx.live.publish(organisationId, connectionEvent(sn, connection));
  await announceDevice(ctx, sn);
};

/** Tells the organisation's browsers the headset's device as stored. */
const announceDevice = async (ctx: ServerContext, sn: string) => {
  const row = await deviceBySnAnywhere(ctx.db, sn);
  if (row) ctx.live.publish(row.organisationId, deviceEvent(ctx, row));
};
