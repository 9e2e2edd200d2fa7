import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Result } from "effect";
import WebSocket from "ws";
import { decode } from "../../core/model/decode.ts";
import { DeviceStatus, Eye } from "../../core/model/enums.ts";
import { AcuityResultSchema } from "../../core/model/acuity.ts";
import { ColourVisionResultSchema } from "../../core/model/colour-vision.ts";
import { ExaminationSchema, isAcuityResult, isAmslerResult, isColourVisionResult } from "../../core/model/examination.ts";
import { frame, PROTOCOL_VERSION } from "../../core/device/protocol.ts";
import type { ExaminationResult } from "../../core/device/result.ts";
import { VirtualHeadset } from "../../simulator/headset/headset.ts";
import { wsConnector } from "../../simulator/headset/ws-connector.ts";
import { credentialFor, login, ok, startTestServer, type TestServer } from "../server/harness.ts";
import { TimePump } from "./time-pump.ts";

// Acuity and colour-vision examinations end to end: a virtual headset runs them from an appointment against the real
// server in-process (PGlite in memory) on simulated time, and examination/all answers them taken with results that
// decode as the model's. A headset that uploads a result of another test type for an examination is not believed.

const SPEED = 50;
const WITHIN_MS = 10 * 60_000;

describe("acuity and colour-vision results from a virtual headset", () => {
  let server: TestServer;
  let token: string;
  const pump = new TimePump();
  const headsets: VirtualHeadset[] = [];
  const devices = async () => ok(server.url, "device.all", {}, token);
  const patient = async (name: string) =>
    ok(
      server.url,
      "patient.register",
      { body: { name, uniqueId: `X-${name.replace(/\W/g, "")}`, gender: 1, lang: "en", birthdate: "1950-06-01" } },
      token,
    );
  const appointment = async (
    deviceSn: string,
    patientId: string,
    exams: Array<{ type: "amsler" | "acuity" | "color-blindness"; eye: Eye }>,
  ) => {
    const d = (await devices()).find((x) => x.deviceSn === deviceSn)!;
    // Clear the demo clinic's lane so ours is the leftmost item.
    for (const x of d.perimetries) await ok(server.url, "perimetry.trash", { query: { id: x.id } }, token);
    for (const x of d.appointments ?? []) await ok(server.url, "appointment.trash", { query: { id: x.id } }, token);
    return ok(
      server.url,
      "appointment.registerWithExaminations",
      {
        body: {
          audioGuide: false,
          tutorial: false,
          trackGaze: false,
          deviceSn,
          patientId,
          standaloneId: null,
          examinations: exams.map((e) => ({ patientId, type: e.type, deviceSn, eye: e.eye, notes: "", config: null })),
        },
      },
      token,
    );
  };

  beforeAll(async () => {
    server = await startTestServer("pglite", { settings: { commandTimeoutMs: 8_000, deviceSilenceMs: 10 * 60_000 } });
    token = await login(server.url, "manager");
  }, 150_000);
  afterAll(async () => {
    for (const h of headsets) h.stop();
    await server?.drop();
  });

  it("a headset runs acuity (both eyes: one examination per eye) and colour vision; the server stores results that decode as the model's", async () => {
    const d = (await devices())[0]!;
    const h = new VirtualHeadset({
      deviceSn: d.deviceSn,
      credential: await credentialFor(server, d.deviceSn),
      clock: pump.clock,
      connector: wsConnector(`${server.url.replace(/^http/, "ws")}/device`),
      speed: SPEED,
      seed: d.deviceSn,
      profile: "advanced",
    });
    headsets.push(h);
    h.start();
    await pump.run("connected", () => h.connected, 10_000);
    const p = await patient("Acuity Colour");
    const appt = await appointment(d.deviceSn, p.id, [
      { type: "acuity", eye: Eye.Both },
      { type: "color-blindness", eye: Eye.Binocular },
    ]);
    await pump.settle("the appointment on the headset", () => h.queue[0]?.kind === "appointment" && h.queue[0].appointmentId === appt.id);
    await pump.settle("the server has the headset's status", async () => (await devices()).find((x) => x.id === d.id)!.status === h.status);
    await ok(server.url, "device.update", { query: { id: d.id }, body: { status: DeviceStatus.Playing } }, token);
    const taken = async () => ok(server.url, "examination.all", { query: { patientId: p.id, taken: true } }, token);
    await pump.run("the headset done", () => h.queue.length === 0 && h.status === DeviceStatus.Standby, WITHIN_MS);
    // The server registers an examination for both eyes as one per eye (right, left): three examinations.
    await pump.settle("every examination taken", async () => (await taken()).length === 3);

    // examination/all answers through the contract (ok decodes it); decode the raw rows again with the model to be sure.
    const stored = await taken();
    for (const e of stored) expect(Result.isSuccess(decode(ExaminationSchema, JSON.parse(JSON.stringify(e))))).toBe(true);
    const acuity = stored.filter((e) => e.type === "acuity").sort((a, b) => a.eye - b.eye);
    const colour = stored.find((e) => e.type === "color-blindness")!.result;
    expect(acuity.map((e) => e.eye)).toEqual([Eye.Right, Eye.Left]);
    for (const e of acuity) {
      const r = e.result;
      expect(isAcuityResult(r) && Result.isSuccess(decode(AcuityResultSchema, r))).toBe(true);
      if (!isAcuityResult(r)) return;
      expect(r).toMatchObject({ chart: "etdrs", deviceSn: d.deviceSn, appointmentId: appt.id });
      // The examination's eye, scored letter by letter.
      expect(r.eyes.map((x) => x.eye)).toEqual([e.eye]);
      expect(r.eyes[0].logMAR).toBeCloseTo(1.1 - 0.02 * r.eyes[0].optotypesCorrect, 9);
    }
    expect(isColourVisionResult(colour) && Result.isSuccess(decode(ColourVisionResultSchema, colour))).toBe(true);
    if (!isColourVisionResult(colour)) return;
    expect(colour).toMatchObject({ platesPresented: 19, deviceSn: d.deviceSn, appointmentId: appt.id });
    expect(colour.platesCorrect).toBeLessThanOrEqual(19);
  }, 200_000);

  it("a result of another test type for an examination is dropped; the right one is stored", async () => {
    // A raw device connection (no virtual headset on this serial) says hello and uploads by hand.
    const d = (await devices())[1]!;
    const p = await patient("Type Mismatch");
    const appt = await appointment(d.deviceSn, p.id, [{ type: "amsler", eye: Eye.Right }]);
    const amsler = appt.examinations[0]!;
    const socket = new WebSocket(`${server.url.replace(/^http/, "ws")}/device`);
    const welcomed = new Promise<void>((resolve) =>
      socket.on("message", (raw) => JSON.parse(raw.toString()).type === "welcome" && resolve()),
    );
    await new Promise<void>((resolve) => socket.on("open", () => resolve()));
    const credential = await credentialFor(server, d.deviceSn);
    socket.send(frame({ type: "hello", protocolVersion: PROTOCOL_VERSION, deviceSn: d.deviceSn, firmware: "test", credential }));
    await welcomed;
    const stamp = { takenAt: "2025-03-01T10:00:00.000Z", deviceSn: d.deviceSn, appointmentId: appt.id };
    const upload = (outcome: ExaminationResult) =>
      socket.send(frame({ type: "examinationResult", appointmentId: appt.id, examinationId: amsler.id, outcome }));
    upload({
      type: "acuity",
      result: { chart: "etdrs", eyes: [{ eye: Eye.Right, logMAR: 0, optotypesPresented: 60, optotypesCorrect: 55 }], ...stamp },
    });
    upload({ type: "amsler", result: { answer: "wavy", ...stamp } });
    // Frames are handled in order: once the Amsler answer is stored, the acuity one before it has been handled too.
    let stored: unknown = null;
    await pump.settle("the Amsler answer stored", async () => {
      const list = await ok(server.url, "examination.all", { query: { patientId: p.id, taken: true } }, token);
      stored = list[0]?.result ?? null;
      return list.length === 1;
    });
    socket.close();
    expect(isAmslerResult(stored as never)).toBe(true);
    expect(stored).toMatchObject({ answer: "wavy", appointmentId: appt.id });
  }, 120_000);
});
