import { randomUUID } from "node:crypto";
import type { WebSocket } from "ws";
import type { CommandKind, QueueItem, RefusalReason, ServerMessage, TestConfig } from "../../../core/device/protocol.ts";
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

// Connected headsets by serial. Sends each one its queue and stand-alone setting whenever they change, and carries
// commands (start, pause, resume, stop) that wait for the headset's ack. The sends of one kind to one headset go one after
// the other: each reads the database in several steps, and overlapping ones (a reconnecting headset's hello and the
// technician's switch-off at the same moment) could otherwise finish out of order and leave the headset with a setting
// or queue that no longer holds. Each send starts after its change is committed, so the last one sent was read last.

export interface DeviceHub {
  /** The headset's socket, admitted with the credential of this hash; an older socket of the serial is closed. */
  attach(deviceSn: string, socket: WebSocket, credentialHash: string): void;
  detach(deviceSn: string, socket: WebSocket): void;
  isConnected(deviceSn: string): boolean;
  /** The credential hash the serial is connected with, if it is. */
  liveCredential(deviceSn: string): string | undefined;
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

export const deviceHub = (db: Database, commandTimeoutMs: number): DeviceHub => {
  const sockets = new Map<string, WebSocket>();
  const credentials = new WeakMap<WebSocket, string>();
  const inOrder = sendsInOrder();
  const pending = new Map<string, { sn: string; resolve: () => void; reject: (e: Failure) => void; timer: NodeJS.Timeout }>();

  const send = (sn: string, message: ServerMessage) => {
    const socket = sockets.get(sn);
    if (socket && socket.readyState === socket.OPEN) socket.send(frame(message));
  };

  const queueItems = async (sn: string): Promise<QueueItem[]> => {
    const device = await deviceBySnAnywhere(db, sn);
    if (!device) return [];
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
                  { ...e.config, patientId: a.patientId, displayName: e.type, eye: e.eye, tutorial: a.tutorial, sorsStage: e.config.sorsStage },
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
      send(sn, { type: "standalone", standaloneId: device.standaloneId, config: testConfig(config, patient) });
    } catch (e) {
      log.warn("standalone_push_failed", { device: sn, error: e });
    }
  };

  return {
    attach(sn, socket, credentialHash) {
      const old = sockets.get(sn);
      if (old && old !== socket) old.close(4000, "replaced by a newer connection");
      credentials.set(socket, credentialHash);
      sockets.set(sn, socket);
    },
    liveCredential(sn) {
      const socket = sockets.get(sn);
      return socket && socket.readyState === socket.OPEN ? credentials.get(socket) : undefined;
    },
    refuse(sn, reason, message) {
      const socket = sockets.get(sn);
      if (!socket) return;
      if (socket.readyState === socket.OPEN) socket.send(frame({ type: "refused", reason, message }));
      socket.close(4003, reason);
    },
    detach(sn, socket) {
      if (sockets.get(sn) === socket) sockets.delete(sn);
      for (const [id, p] of pending)
        if (p.sn === sn) {
          clearTimeout(p.timer);
          pending.delete(id);
          p.reject(new Failure("device_not_connected", commandFailed));
        }
    },
    isConnected: (sn) => sockets.get(sn)?.readyState === 1,
    command(sn, kind) {
      if (!sockets.has(sn)) return Promise.reject(new Failure("device_not_connected", `${commandFailed} (the device is not connected)`));
      const commandId = randomUUID();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(commandId);
          reject(new Failure("device_not_connected", `${commandFailed} (no answer from the device)`));
        }, commandTimeoutMs);
        pending.set(commandId, { sn, resolve, reject, timer });
        send(sn, { type: "command", commandId, kind });
      });
    },
    acknowledge(sn, commandId, ok, error) {
      const p = pending.get(commandId);
      if (!p || p.sn !== sn) return;
      clearTimeout(p.timer);
      pending.delete(commandId);
      if (ok) p.resolve();
      else p.reject(new Failure("device_not_connected", `${commandFailed}${error ? ` (${error})` : ""}`));
    },
    pushQueue: (sn) =>
      inOrder(`queue/${sn}`, async () => {
        if (!sockets.has(sn)) return;
        try {
          send(sn, { type: "queue", items: await queueItems(sn) });
        } catch (e) {
          log.warn("queue_push_failed", { device: sn, error: e });
        }
      }),
    pushStandalone: (sn) => inOrder(`standalone/${sn}`, () => pushStandaloneNow(sn)),
    send,
    closeAll() {
      for (const s of sockets.values()) s.close(1001, "server shutting down");
      sockets.clear();
    },
  };
};

export { PROTOCOL_VERSION };
