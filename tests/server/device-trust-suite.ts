import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { PROTOCOL_VERSION } from "../../core/device/protocol.ts";
import { Eye, Pattern, Strategy } from "../../core/model/enums.ts";
import { measurementConfigWith } from "../../core/rules/defaults.ts";
import type { MeasurementBody } from "../../core/model/measurement.ts";
import { demoResult } from "../../simulator/server/demo/results.ts";
import { call, liveSocket, login, ok, startTestServer, type TestServer } from "./harness.ts";

// The attacker's side of the headset socket (issue 15, point 1: "A headset proves who it is before it is told
// anything"), against the running server: forged hellos, replayed and wrong credentials, used and expired pairing codes,
// another organisation's serial, uploads into what is queued on another headset or organisation, a revoked headset.
// Every refusal is "a protocol error frame naming the reason", then the close, and nothing of the queue before it.

type Frame = Record<string, unknown> & { type: string };

/** A raw connection to /device: every frame it gets, and how it closed. */
const connect = async (base: string) => {
  const socket = new WebSocket(`${base.replace(/^http/, "ws")}/device`);
  const frames: Frame[] = [];
  const waiters: Array<{ test: (f: Frame) => boolean; resolve: (f: Frame) => void }> = [];
  socket.on("message", (data) => {
    const f = JSON.parse(data.toString()) as Frame;
    frames.push(f);
    for (const w of [...waiters]) if (w.test(f)) waiters.splice(waiters.indexOf(w), 1), w.resolve(f);
  });
  const closed = new Promise<number>((resolve) => socket.once("close", (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => (socket.once("open", () => resolve()), socket.once("error", reject)));
  const next = (test: (f: Frame) => boolean, timeoutMs = 5000) =>
    new Promise<Frame>((resolve, reject) => {
      const seen = frames.find(test);
      if (seen) return resolve(seen);
      const timer = setTimeout(() => reject(new Error(`no matching frame; got ${frames.map((f) => f.type).join(",")}`)), timeoutMs);
      waiters.push({ test, resolve: (f) => (clearTimeout(timer), resolve(f)) });
    });
  return { socket, frames, closed, next, send: (m: unknown) => socket.send(JSON.stringify(m)) };
};

const hello = (deviceSn: string, proof: { credential: string } | { pairingCode: string }) => ({
  type: "hello",
  protocolVersion: PROTOCOL_VERSION,
  deviceSn,
  firmware: "attacker-1",
  ...proof,
});

export const deviceTrustSuite = (backend: "pglite" | "postgres") =>
  describe(`headset enrolment and the device socket's trust boundary on ${backend}`, () => {
    let server: TestServer;
    let base: string;
    let manager: string;
    let apptManager: string;
    let offsetMs = 0;

    /** Sends a first frame and answers the refusal (the socket must close after it, having been told nothing). */
    const refusal = async (first: unknown) => {
      const s = await connect(base);
      s.send(first);
      const code = await s.closed;
      expect(s.frames.map((f) => f.type)).toEqual(["refused"]);
      expect(code).toBe(4002);
      return s.frames[0]! as unknown as { reason: string; message: string };
    };
    /** A connection admitted with the proof: welcomed (after `enrolled` for a pairing code). */
    const admitted = async (sn: string, proof: { credential: string } | { pairingCode: string }) => {
      const s = await connect(base);
      s.send(hello(sn, proof));
      await s.next((f) => f.type === "welcome" || f.type === "refused");
      expect(s.frames.find((f) => f.type === "refused")).toBeUndefined();
      return s;
    };
    const enrol = async (deviceSn: string, secret: "credential" | "pairingCode" = "credential", token = manager) =>
      ok(base, "device.enrol", { body: { deviceSn, secret } }, token);
    const deviceOf = async (sn: string, token = manager) => (await ok(base, "device.all", {}, token)).find((d) => d.deviceSn === sn)!;
    const patient = async (name: string, token = manager) =>
      ok(
        base,
        "patient.register",
        { body: { name, uniqueId: `T-${Math.random().toString(36).slice(2, 10)}`, gender: 0, lang: "en", birthdate: "1955-04-04" } },
        token,
      );
    const measurement = async (patientId: string, deviceSn: string, token = manager) => {
      const body: MeasurementBody = measurementConfigWith({
        patientId,
        deviceSn,
        displayName: "Trust",
        eye: Eye.Right,
        pattern: Pattern.P24_2,
        strategy: Strategy.DS,
      });
      return (await ok(base, "perimetry.register", { body }, token))[0]!;
    };
    const resultFor = (measurementId: string, patientId: string) =>
      demoResult({
        measurementId,
        patientId,
        takenAt: new Date().toISOString(),
        ageYears: 70,
        yearsIntoCourse: 0,
        course: "healthy",
        eye: Eye.Right,
        pattern: Pattern.P24_2,
        strategy: Strategy.DS,
        deviceAlias: "x",
        seed: 5,
      });
    /** A frame after which the server has handled everything sent before it (it handles a headset's frames in order). */
    const settled = async (s: Awaited<ReturnType<typeof connect>>, resultId: string) => {
      s.send({ type: "standaloneResult", standaloneId: "none", resultId, result: resultFor("x", "y") });
      await s.next((f) => f.type === "resultAccepted" && f.resultId === resultId);
    };

    beforeAll(async () => {
      server = await startTestServer(backend, { now: () => Date.now() + offsetMs, settings: { deviceSilenceMs: 60_000 } });
      base = server.url;
      manager = await login(base, "manager");
      apptManager = await login(base, "appt.manager");
    }, 180_000);
    afterAll(async () => {
      await server?.drop();
    });

    it("forged hellos are refused naming the reason, closed, and told nothing: no proof, v1, a made-up credential, an unknown serial", async () => {
      const noProof = { type: "hello", protocolVersion: PROTOCOL_VERSION, deviceSn: "VR-0001", firmware: "attacker-1" };
      expect((await refusal(noProof)).reason).toBe("malformed");
      expect((await refusal({ type: "hello", protocolVersion: 1, deviceSn: "VR-0001", firmware: "old" })).reason).toBe("protocol-version");
      expect((await refusal({ type: "heartbeat", battery: { vr: 1, clicker: 1, vrCharging: false, clickerCharging: false } })).reason).toBe(
        "malformed",
      );
      // VR-0001 was registered by the seed before enrolment existed: no credential opens it.
      expect(await refusal(hello("VR-0001", { credential: "isd1.guessed" }))).toMatchObject({ reason: "not-enrolled" });
      await enrol("VR-T001");
      expect(await refusal(hello("VR-T001", { credential: "isd1.guessed" }))).toMatchObject({ reason: "wrong-credential" });
      expect(await refusal(hello("VR-T001", { pairingCode: "ABCDE-FGHJK" }))).toMatchObject({ reason: "wrong-credential" });
      expect(await refusal(hello("VR-NOBODY", { credential: "isd1.guessed" }))).toMatchObject({
        reason: "unknown-device",
        message: expect.stringContaining("VR-NOBODY"),
      });
    });

    it("a replayed credential or pairing code is refused: the old credential after enrolling again, a pairing code used once", async () => {
      const first = await enrol("VR-T002");
      const s = await admitted("VR-T002", { credential: first.secret.value });
      const again = await ok(base, "device.reenrol", { query: { id: first.headset.id }, body: { secret: "pairingCode" } }, manager);
      // Enrolling again closes the live connection of the old credential at once, with the reason.
      expect(await s.closed).toBe(4003);
      expect(s.frames.at(-1)).toMatchObject({ type: "refused", reason: "revoked" });
      expect((await refusal(hello("VR-T002", { credential: first.secret.value }))).reason).toBe("wrong-credential");
      expect(again.secret.value).toMatch(/^[A-HJKMNP-TV-Z2-9]{5}-[A-HJKMNP-TV-Z2-9]{5}$/);
      // The code in any case and spacing, once: it answers the credential to keep, then it is spent.
      const paired = await admitted("VR-T002", { pairingCode: again.secret.value.toLowerCase().replace("-", " ") });
      const enrolled = paired.frames.find((f) => f.type === "enrolled") as unknown as { credential: string };
      expect(enrolled.credential).toMatch(/^isd1\./);
      paired.socket.close();
      await paired.closed;
      expect((await refusal(hello("VR-T002", { pairingCode: again.secret.value }))).reason).toBe("wrong-credential");
      const back = await admitted("VR-T002", { credential: enrolled.credential });
      back.socket.close();
      expect((await ok(base, "device.enrolments", {}, manager)).find((h) => h.deviceSn === "VR-T002")?.state).toBe("enrolled");
    });

    it("a pairing code expires after an hour", async () => {
      const issued = await enrol("VR-T003", "pairingCode");
      expect(Date.parse(issued.secret.expiresAt!) - Date.now() - offsetMs).toBeGreaterThan(59 * 60_000);
      offsetMs += 61 * 60_000;
      try {
        expect((await refusal(hello("VR-T003", { pairingCode: issued.secret.value }))).reason).toBe("wrong-credential");
      } finally {
        offsetMs = 0;
      }
    });

    it("a serial connected with its credential cannot be taken over: another credential is refused already-connected, the live headset stays", async () => {
      const issued = await enrol("VR-T004");
      const real = await admitted("VR-T004", { credential: issued.secret.value });
      expect((await refusal(hello("VR-T004", { credential: "isd1.forged" }))).reason).toBe("already-connected");
      expect((await refusal(hello("VR-T004", { pairingCode: "ABCDE-FGHJK" }))).reason).toBe("already-connected");
      // Still the organisation's connected headset: it gets its queue when a measurement is planned on it.
      const p = await patient("Still Mine");
      const m = await measurement(p.id, "VR-T004");
      await real.next((f) => f.type === "queue" && JSON.stringify(f.items).includes(m.id));
      expect((await deviceOf("VR-T004")).connection).toBe("CONNECTED");
      real.socket.close();
      await real.closed;
    });

    it("another organisation's serial: its headset cannot be opened with this organisation's credential, enrolled, revoked or re-enrolled here", async () => {
      const mine = await enrol("VR-T005");
      expect((await refusal(hello("VR-A001", { credential: mine.secret.value }))).reason).toMatch(/^(not-enrolled|wrong-credential)$/);
      const taken = await call(base, "device.enrol", { body: { deviceSn: "VR-A001", secret: "credential" } }, manager);
      expect([taken.status, taken.responseType, taken.error?.field]).toEqual([409, "conflict", "body.deviceSn"]);
      const theirs = await deviceOf("VR-A001", apptManager);
      expect((await call(base, "device.revoke", { query: { id: theirs.id } }, manager)).status).toBe(404);
      expect((await call(base, "device.reenrol", { query: { id: theirs.id }, body: { secret: "credential" } }, manager)).status).toBe(404);
      expect((await ok(base, "device.enrolments", {}, manager)).some((h) => h.deviceSn === "VR-A001")).toBe(false);
      // Users (not managers) may not enrol, list or revoke.
      const user = await login(base, "user");
      expect((await call(base, "device.enrolments", {}, user)).status).toBe(403);
      expect((await call(base, "device.enrol", { body: { deviceSn: "VR-T099", secret: "credential" } }, user)).status).toBe(403);
      expect((await call(base, "device.revoke", { query: { id: mine.headset.id } }, user)).status).toBe(403);
    });

    it("a headset delivers results only for what is queued on it: not into another headset's or organisation's measurement or examination, nor another headset's stand-alone data", async () => {
      const a = await enrol("VR-T006");
      const b = await enrol("VR-T007");
      const s = await admitted("VR-T006", { credential: a.secret.value });
      const p = await patient("Queued Elsewhere");
      const onOther = await measurement(p.id, "VR-T007");
      const onMine = await measurement(p.id, "VR-T006");
      s.send({ type: "result", measurementId: onOther.id, result: resultFor(onOther.id, p.id) });
      // The other organisation's queued examination (the appointment clinic's first lane).
      const theirLane = await deviceOf("VR-A001", apptManager);
      const theirExam = theirLane.appointments![0]!.examinations[0]!;
      s.send({
        type: "examinationResult",
        appointmentId: theirExam.appointmentId,
        examinationId: theirExam.id,
        outcome: {
          type: "amsler",
          result: { answer: "missing", takenAt: new Date().toISOString(), deviceSn: "VR-T006", appointmentId: theirExam.appointmentId },
        },
      });
      // A measurement of the other organisation, queued on its headset.
      const theirPatient = await patient("Other Clinic", apptManager);
      const theirs = await measurement(theirPatient.id, "VR-A002", apptManager);
      s.send({ type: "result", measurementId: theirs.id, result: resultFor(theirs.id, theirPatient.id) });
      // Another headset's stand-alone data.
      const standalone = (await ok(
        base,
        "device.standalone",
        { query: { deviceSn: "VR-T007" }, body: { ...configOf(onOther), patientId: p.id } as never },
        manager,
      ))!;
      const before = (await ok(base, "perimetry.all", { query: { patientId: p.id } }, manager)).length;
      s.send({ type: "standaloneResult", standaloneId: standalone.id, resultId: "steal-1", result: resultFor("x", p.id) });
      await s.next((f) => f.type === "resultAccepted" && f.resultId === "steal-1"); // accepted and dropped: nothing to retry
      // Its own queued measurement is stored (the same frames, with the right id).
      s.send({ type: "result", measurementId: onMine.id, result: resultFor(onMine.id, p.id) });
      await settled(s, "settle-1");
      expect((await ok(base, "perimetry.get", { query: { id: onOther.id } }, manager)).result).toBeNull();
      expect((await ok(base, "perimetry.get", { query: { id: onMine.id } }, manager)).result).not.toBeNull();
      expect((await ok(base, "perimetry.get", { query: { id: theirs.id } }, apptManager)).result).toBeNull();
      expect((await ok(base, "perimetry.all", { query: { patientId: p.id } }, manager)).length).toBe(before);
      const exams = await ok(base, "examination.all", { query: { patientId: theirLane.appointments![0]!.patientId } }, apptManager);
      expect(exams.find((e) => e.id === theirExam.id)?.taken).toBe(false);
      // The other headset's queue still holds its measurement; it is the one that may deliver it.
      const other = await admitted("VR-T007", { credential: b.secret.value });
      await other.next((f) => f.type === "queue" && JSON.stringify(f.items).includes(onOther.id));
      other.socket.close();
      s.socket.close();
    });

    it("a revoked headset is closed at once with the reason, refused on reconnecting, and back after enrolling again", async () => {
      const issued = await enrol("VR-T008");
      const browsers = await liveSocket(base, manager);
      const s = await admitted("VR-T008", { credential: issued.secret.value });
      const revoked = await ok(base, "device.revoke", { query: { id: issued.headset.id } }, manager);
      expect(revoked).toMatchObject({ deviceSn: "VR-T008", state: "revoked", revokedAt: expect.any(String) });
      expect(await s.closed).toBe(4003);
      expect(s.frames.at(-1)).toMatchObject({ type: "refused", reason: "revoked" });
      await browsers.next(
        (m) => m.type === "connection" && m.deviceSn === "VR-T008" && (m.data as { connection: string }).connection === "DISCONNECTED",
      );
      expect((await refusal(hello("VR-T008", { credential: issued.secret.value }))).reason).toBe("revoked");
      const again = await ok(base, "device.reenrol", { query: { id: issued.headset.id }, body: { secret: "credential" } }, manager);
      expect(again.headset.state).toBe("enrolled");
      const back = await admitted("VR-T008", { credential: again.secret.value });
      back.socket.close();
      browsers.close();
    });

    it("enrolment answers hold the secret once; the list never shows one", async () => {
      const list = await ok(base, "device.enrolments", {}, manager);
      expect(JSON.stringify(list)).not.toMatch(/isd1\./);
      const rows = await server.db.query<{ credential_hash: string | null }>(
        "select credential_hash from devices where device_sn like 'VR-T%'",
      );
      expect(rows.every((r) => r.credential_hash === null || /^[0-9a-f]{64}$/.test(r.credential_hash))).toBe(true);
    });
  });

/** The measurement configuration a stand-alone switch-on sends (the measurement's fields without its own). */
const configOf = (m: object): Record<string, unknown> => {
  const keys = [
    "eye",
    "pattern",
    "strategy",
    "sorsStage",
    "stimuliUpdate",
    "stimuliShowtime",
    "stimuliSize",
    "displayName",
    "playSound",
    "trackGaze",
    "audioGuide",
    "tutorial",
  ];
  return Object.fromEntries(keys.map((k) => [k, (m as Record<string, unknown>)[k]]));
};
