import { randomUUID } from "node:crypto";
import type { WebSocket } from "ws";
import type { CommandKind, HomeSetting, QueueItem, RefusalReason, ServerMessage, TestConfig } from "../../../core/device/protocol.ts";
import { clinicDate, repeatState } from "../../../core/home/index.ts";
import { frame, PROTOCOL_VERSION } from "../../../core/device/protocol.ts";
import type { Database } from "../db/database.ts";
import { Failure } from "../http/failure.ts";
import { appointmentQueueOf } from "../store/appointments.ts";
import { deviceBySnAnywhere } from "../store/devices.ts";
import { queueOf } from "../store/measurements.ts";
import type { Patient } from "../../../core/model/patient.ts";
import { getPatient } from "../store/patients.ts";
import type { StandaloneConfig } from "../../../core/model/measurement.ts";
import { log } from "../log.ts";
import type { Bus } from "../bus/bus.ts";
import type { BusMessageOf } from "../bus/messages.ts";
import type { Roster } from "../bus/roster.ts";
import { deviceSubject } from "../bus/subjects.ts";
import { boundProgramme, type ProgrammeRow, rulesOf, storedResults } from "../store/home.ts";
import { repeatsOf } from "../home/repeats.ts";

// Connected headsets by serial. Sends each one its queue and stand-alone setting whenever they change, and carries
// commands (start, pause, resume, stop) that wait for the headset's ack. The sends of one kind to one headset go one after
// the other: each reads the database in several steps, and overlapping ones (a reconnecting headset's hello and the
// technician's switch-off at the same moment) could otherwise finish out of order and leave the headset with a setting
// or queue that no longer holds. Each send starts after its change is committed, so the last one sent was read last.
//
// Several processes on one database (issue 17): a headset is connected to one of them (the roster names which). A
// command for a headset elsewhere goes through the bus to its process, which sends it and returns the ack (or the
// failure) through the bus; the caller waits with the same timeout and error. Queue and stand-alone pushes and
// refusals for a headset elsewhere go through the bus too, and a headset that connects here closes its older socket
// wherever it was.

export interface DeviceHub {
  /** The headset's socket, admitted with the credential of this hash; an older socket of the serial is closed, here or
   * on another process. */
  attach(deviceSn: string, socket: WebSocket, credentialHash: string): Promise<void>;
  detach(deviceSn: string, socket: WebSocket): void;
  /** Connected to this process. */
  isConnected(deviceSn: string): boolean;
  /** The socket closed: true when no socket of the headset remains, here or on another process (it is disconnected). */
  release(deviceSn: string): Promise<boolean>;
  /** The credential hash the serial is connected with, here or on another process, if it is. */
  liveCredential(deviceSn: string): Promise<string | undefined>;
  /** This process's headsets, claimed again after its lease was lost. */
  reclaim(): Promise<string[]>;
  /** Refuses the connected headset (revoked, enrolled again): a refused frame naming the reason, then the close. */
  refuse(deviceSn: string, reason: RefusalReason, message: string): void;
  /** Sends the command and resolves when the headset acks it; fails device_not_connected on no answer or refusal. */
  command(deviceSn: string, kind: CommandKind): Promise<void>;
  acknowledge(deviceSn: string, commandId: string, ok: boolean, error: string | undefined): void;
  pushQueue(deviceSn: string): Promise<void>;
  pushStandalone(deviceSn: string): Promise<void>;
  send(deviceSn: string, message: ServerMessage): void;
  closeAll(): void;
}

const commandFailed = "Error sending the command to the VR device; use the controller or clicker";

const testConfig = (c: Omit<StandaloneConfig, "patientId"> & { patientId: string }, patient: Patient | undefined): TestConfig => ({
  patientId: c.patientId,
  patientBirthdate: patient?.birthdate ?? null,
  displayName: c.displayName,
  eye: c.eye,
  pattern: c.pattern,
  strategy: c.strategy,
  sorsStage: c.sorsStage,
  stimuliUpdate: c.stimuliUpdate,
  stimuliSize: c.stimuliSize,
  stimuliShowtime: c.stimuliShowtime,
  playSound: c.playSound,
  trackGaze: c.trackGaze,
  audioGuide: c.audioGuide,
  tutorial: c.tutorial,
});

/** A bound headset's schedule: when its programme's sessions fall due (core/device/protocol.ts HomeSetting), and the
 * repeats still pending on the clinic's today (done or lapsed ones are left out; the field is absent when none is). */
const homeSetting = async (db: Database, p: ProgrammeRow, now: string): Promise<HomeSetting> => {
  const { slots } = await storedResults(db, p);
  const today = clinicDate(rulesOf(p), now);
  const repeats = (await repeatsOf(db, p.id)).filter((r) => repeatState(r, slots, today) === "pending");
  return {
    programmeId: p.id,
    eyes: p.eyes,
    frequency: p.frequency,
    start: p.start,
    end: p.end,
    reminderTime: p.reminderTime,
    timeZone: p.timeZone,
    ...(repeats.length > 0 ? { repeats } : {}),
  };
};

/** Runs tasks of the same key one after the other (in call order); tasks of different keys run side by side. */
const sendsInOrder = () => {
  const tails = new Map<string, Promise<void>>();
  return (key: string, task: () => Promise<void>): Promise<void> => {
    const run = (tails.get(key) ?? Promise.resolve()).then(task, task);
    tails.set(key, run);
    void run
      .finally(() => {
        if (tails.get(key) === run) tails.delete(key);
      })
      .catch(() => undefined);
    return run;
  };
};

const notConnected = () => new Failure("device_not_connected", `${commandFailed} (the device is not connected)`);

export const deviceHub = (
  db: Database,
  commandTimeoutMs: number,
  bus: Bus,
  roster: Roster,
  /** The server's clock (tests move it): which of a programme's repeats are still pending today. */
  now: () => number = Date.now,
): DeviceHub => {
  const sockets = new Map<string, WebSocket>();
  const credentials = new WeakMap<WebSocket, string>();
  /** The release of the device subject each attached socket holds. */
  const held = new Map<WebSocket, () => void>();
  // A headset's claims and releases in the roster, one after the other: a closed socket's release (decided when no
  // socket holds the serial) must not reach the database after the claim of a socket that connected meanwhile, or
  // it would delete that claim and the others would find the headset nowhere.
  const rosterTurns = new Map<string, Promise<unknown>>();
  const inTurn = <T>(sn: string, work: () => Promise<T>): Promise<T> => {
    const turn = (rosterTurns.get(sn) ?? Promise.resolve()).catch(() => undefined).then(work);
    rosterTurns.set(sn, turn);
    void turn
      .catch(() => undefined)
      .finally(() => {
        if (rosterTurns.get(sn) === turn) rosterTurns.delete(sn);
      });
    return turn;
  };
  const inOrder = sendsInOrder();
  const pending = new Map<string, { sn: string; resolve: () => void; reject: (e: Failure) => void; timer: NodeJS.Timeout }>();
  /** Commands sent here for another process's caller: command id -> that process. */
  const forwarded = new Map<string, { sn: string; to: string }>();

  const send = (sn: string, message: ServerMessage) => {
    const socket = sockets.get(sn);
    if (socket && socket.readyState === socket.OPEN) socket.send(frame(message));
  };

  const queueItems = async (sn: string): Promise<QueueItem[]> => {
    const device = await deviceBySnAnywhere(db, sn);
    if (!device) return [];
    // A headset lent for a home programme is in the patient's home: it is sent no other test (issue 31 §5).
    if (await boundProgramme(db, sn)) return [];
    const org = device.organisationId;
    const items: QueueItem[] = [];
    for (const m of await queueOf(db, org, sn))
      items.push({ kind: "measurement", measurementId: m.id, config: testConfig(m, await getPatient(db, org, m.patientId)) });
    for (const a of await appointmentQueueOf(db, org, sn)) {
      const patient = await getPatient(db, org, a.patientId);
      items.push({
        kind: "appointment",
        appointmentId: a.id,
        patientId: a.patientId,
        audioGuide: a.audioGuide,
        tutorial: a.tutorial,
        trackGaze: a.trackGaze,
        examinations: a.examinations
          .filter((e) => !e.taken)
          .map((e) => ({
            examinationId: e.id,
            type: e.type,
            eye: e.eye,
            config: e.config
              ? testConfig(
                  {
                    ...e.config,
                    patientId: a.patientId,
                    displayName: e.type,
                    eye: e.eye,
                    tutorial: a.tutorial,
                    sorsStage: e.config.sorsStage,
                  },
                  patient,
                )
              : null,
          })),
      });
    }
    return items;
  };

  const pushStandaloneNow = async (sn: string) => {
    if (!sockets.has(sn)) return;
    try {
      const device = await deviceBySnAnywhere(db, sn);
      if (!device?.standaloneId) return send(sn, { type: "standalone", standaloneId: null, config: null });
      const rows = await db.query<{ body: StandaloneConfig }>("select body from standalone_configs where id = $1", [device.standaloneId]);
      const config = rows[0]?.body;
      if (!config) return send(sn, { type: "standalone", standaloneId: null, config: null });
      const patient = await getPatient(db, device.organisationId, config.patientId);
      const programme = await boundProgramme(db, sn);
      const home =
        programme?.standaloneId === device.standaloneId ? { home: await homeSetting(db, programme, new Date(now()).toISOString()) } : {};
      send(sn, { type: "standalone", standaloneId: device.standaloneId, config: testConfig(config, patient), ...home });
    } catch (e) {
      log.warn("standalone_push_failed", { device: sn, error: e });
    }
  };

  /** Settles a command this process waits for. */
  const settle = (commandId: string, sn: string, ok: boolean, failure: () => Failure) => {
    const p = pending.get(commandId);
    if (!p || p.sn !== sn) return;
    clearTimeout(p.timer);
    pending.delete(commandId);
    if (ok) p.resolve();
    else p.reject(failure());
  };
  const refusedBy = (error: string | undefined) => () =>
    new Failure("device_not_connected", `${commandFailed}${error ? ` (${error})` : ""}`);
  /** Waits for the ack of a command sent by `send`; the seeds' error on refusal, loss or silence. */
  const awaitAck = (sn: string, send: (commandId: string) => void) => {
    const commandId = randomUUID();
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        pending.delete(commandId);
        reject(new Failure("device_not_connected", `${commandFailed} (no answer from the device)`));
      }, commandTimeoutMs);
      pending.set(commandId, { sn, resolve, reject, timer });
      send(commandId);
    });
  };
  const closeLocal = (sn: string, code: number, reason: string) => {
    const socket = sockets.get(sn);
    if (socket) socket.close(code, reason);
  };
  const refuseLocal = (sn: string, reason: RefusalReason, message: string) => {
    const socket = sockets.get(sn);
    if (!socket) return;
    if (socket.readyState === socket.OPEN) socket.send(frame({ type: "refused", reason, message }));
    socket.close(4003, reason);
  };
  const pushQueueNow = (sn: string) =>
    inOrder(`queue/${sn}`, async () => {
      if (!sockets.has(sn)) return;
      try {
        send(sn, { type: "queue", items: await queueItems(sn) });
      } catch (e) {
        log.warn("queue_push_failed", { device: sn, error: e });
      }
    });
  const pushStandaloneLocal = (sn: string) => inOrder(`standalone/${sn}`, () => pushStandaloneNow(sn));

  // What other processes ask of the headsets connected here, and the acks they return for commands sent from here.
  const onCommand = (m: BusMessageOf<"command">) => {
    if (m.to !== bus.processId) return;
    if (!sockets.has(m.deviceSn)) {
      bus.publish({ type: "ack", deviceSn: m.deviceSn, commandId: m.commandId, to: m.from, ok: false, notConnected: true });
      return;
    }
    forwarded.set(m.commandId, { sn: m.deviceSn, to: m.from });
    // The caller gives up after its timeout; the entry goes a little later in case the ack never comes.
    setTimeout(() => forwarded.delete(m.commandId), commandTimeoutMs * 2).unref();
    send(m.deviceSn, { type: "command", commandId: m.commandId, kind: m.kind });
  };
  bus.subscribe((m, fromHere) => {
    if (fromHere) return;
    switch (m.type) {
      case "command":
        return onCommand(m);
      case "ack":
        if (m.to === bus.processId) settle(m.commandId, m.deviceSn, m.ok, m.notConnected ? notConnected : refusedBy(m.error));
        return;
      case "push":
        if (sockets.has(m.deviceSn)) void (m.what === "queue" ? pushQueueNow(m.deviceSn) : pushStandaloneLocal(m.deviceSn));
        return;
      case "refuse":
        return refuseLocal(m.deviceSn, m.reason, m.message);
      case "attached":
        if (m.by !== bus.processId) closeLocal(m.deviceSn, 4000, "replaced by a newer connection");
        return;
    }
  });

  return {
    async attach(sn, socket, credentialHash) {
      const old = sockets.get(sn);
      if (old && old !== socket) old.close(4000, "replaced by a newer connection");
      credentials.set(socket, credentialHash);
      sockets.set(sn, socket);
      // The headset's subject is held while it is connected here (issue 32 §1): its commands, pushes and refusals
      // reach this process and no other. Held before the claim, so a process that finds the claim can reach it.
      held.get(socket)?.();
      held.set(socket, await bus.interest(deviceSubject(sn)));
      // Claimed before the others hear of it, so the process closing its older socket finds it held here.
      await inTurn(sn, () => roster.claim(sn, credentialHash));
      bus.publish({ type: "attached", deviceSn: sn, by: bus.processId });
    },
    async liveCredential(sn) {
      const socket = sockets.get(sn);
      if (socket && socket.readyState === socket.OPEN) return credentials.get(socket);
      return (await roster.elsewhere(sn))?.credentialHash;
    },
    refuse(sn, reason, message) {
      if (sockets.has(sn)) refuseLocal(sn, reason, message);
      else bus.publish({ type: "refuse", deviceSn: sn, reason, message });
    },
    detach(sn, socket) {
      if (sockets.get(sn) === socket) sockets.delete(sn);
      held.get(socket)?.();
      held.delete(socket);
      for (const [id, p] of pending)
        if (p.sn === sn) {
          clearTimeout(p.timer);
          pending.delete(id);
          p.reject(new Failure("device_not_connected", commandFailed));
        }
      for (const [id, f] of forwarded)
        if (f.sn === sn) {
          forwarded.delete(id);
          bus.publish({ type: "ack", deviceSn: sn, commandId: id, to: f.to, ok: false });
        }
    },
    isConnected: (sn) => sockets.get(sn)?.readyState === 1,
    release: (sn) => inTurn(sn, async () => !sockets.has(sn) && (await roster.release(sn))),
    async reclaim() {
      const held = [...sockets].filter(([, s]) => s.readyState === s.OPEN);
      for (const [sn, socket] of held) await inTurn(sn, () => roster.claim(sn, credentials.get(socket) ?? ""));
      return held.map(([sn]) => sn);
    },
    async command(sn, kind) {
      if (sockets.has(sn)) return awaitAck(sn, (commandId) => send(sn, { type: "command", commandId, kind }));
      const holder = await roster.elsewhere(sn);
      if (!holder) throw notConnected();
      return awaitAck(sn, (commandId) =>
        bus.publish({ type: "command", deviceSn: sn, commandId, kind, from: bus.processId, to: holder.processId }),
      );
    },
    acknowledge(sn, commandId, ok, error) {
      const f = forwarded.get(commandId);
      if (f && f.sn === sn) {
        forwarded.delete(commandId);
        bus.publish({ type: "ack", deviceSn: sn, commandId, to: f.to, ok, ...(error !== undefined ? { error } : {}) });
        return;
      }
      settle(commandId, sn, ok, refusedBy(error));
    },
    pushQueue: (sn) => {
      if (sockets.has(sn)) return pushQueueNow(sn);
      bus.publish({ type: "push", deviceSn: sn, what: "queue" });
      return Promise.resolve();
    },
    pushStandalone: (sn) => {
      if (sockets.has(sn)) return pushStandaloneLocal(sn);
      bus.publish({ type: "push", deviceSn: sn, what: "standalone" });
      return Promise.resolve();
    },
    send,
    closeAll() {
      for (const s of sockets.values()) s.close(1001, "server shutting down");
      sockets.clear();
      for (const release of held.values()) release();
      held.clear();
    },
  };
};

export { PROTOCOL_VERSION };
