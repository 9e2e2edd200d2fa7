import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Result } from "effect";
import { decode } from "../../core/model/decode.ts";
import { Eye, Pattern, Strategy } from "../../core/model/enums.ts";
import { MeasurementResultSchema } from "../../core/model/measurement-result.ts";
import { CURRENT_NORMATIVE_VERSION } from "../../core/analytics/normative/registry.ts";
import { engineResult } from "../../simulator/server/demo/engine-results.ts";
import { demoResult, type DemoResultInput } from "../../simulator/server/demo/results.ts";
import { generatedPassword, seedDemo } from "../../simulator/server/demo/seed.ts";
import { call, DEMO_PASSWORD, login, ok, startTestServer, type TestServer } from "./harness.ts";
import { isStrongPassword } from "../../core/rules/password.ts";

// The demo clinic's result histories (issue #4 item 7): run by the perimetry engine (or the closed-form fixtures the
// tests seed with), valid against the model, scored against the normative database where one exists, and getting
// worse over the years for a glaucoma course.

const input = (over: Partial<DemoResultInput>): DemoResultInput => ({
  measurementId: "m1",
  patientId: "p1",
  takenAt: "2025-03-01T10:00:00.000Z",
  ageYears: 66,
  yearsIntoCourse: 0,
  course: "early-glaucoma",
  eye: Eye.Right,
  pattern: Pattern.P24_2,
  strategy: Strategy.DS,
  deviceAlias: "Room 1",
  seed: 1,
  ...over,
});

describe("demo results", () => {
  for (const [label, make] of [
    ["engine", engineResult],
    ["fixtures", demoResult],
  ] as const) {
    it(`${label}: every result decodes as a MeasurementResult; 24-2 and G are scored with the current normative database`, () => {
      for (const pattern of [Pattern.P24_2, Pattern.G])
        for (const eye of [Eye.Right, Eye.Left]) {
          const r = make(input({ pattern, eye }));
          expect(Result.isSuccess(decode(MeasurementResultSchema, r))).toBe(true);
          expect(r.thresholds.length).toBe(r.defects.length);
          expect(r.normativeVersion).toBe(CURRENT_NORMATIVE_VERSION);
        }
    });

    it(`${label}: a glaucoma course loses sensitivity over the years (mean defect after 5 years above the first visit's)`, () => {
      const first = make(input({ yearsIntoCourse: 0, seed: 11 }));
      const later = make(input({ yearsIntoCourse: 5, seed: 12 }));
      expect(later.meanDefect!).toBeGreaterThan(first.meanDefect! + 2);
      const healthy = make(input({ course: "healthy", seed: 13 }));
      expect(Math.abs(healthy.meanDefect!)).toBeLessThan(first.meanDefect! + 1);
    });
  }

  it("a generated demo password satisfies the password policy (accounts §5)", () => {
    for (let i = 0; i < 20; i++) expect(isStrongPassword(generatedPassword())).toBe(true);
  });
});

// The second demo organisation (simulator/server/demo/appointment-clinic.ts): the appointment variant can be seen by
// logging in, without switching the first clinic through PATCH /api/dev/organisation.
describe("the appointment clinic (second demo organisation)", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer("pglite");
  }, 120_000);
  afterAll(async () => server?.drop());

  it("is on the appointment variant, with its own patients and headsets queuing appointments of every test type", async () => {
    const token = await login(server.url, "appt.manager");
    const org = await ok(server.url, "organisation.current", {}, token);
    expect(org).toMatchObject({ name: "Isopter Demo Appointments Clinic", multiTests: true });
    expect((await ok(server.url, "user.profile", {}, token)).multiTests).toBe(true);
    expect((await ok(server.url, "patient.all", {}, token)).length).toBe(5);
    const lanes = await ok(server.url, "device.all", {}, token);
    expect(lanes.map((d) => d.deviceSn)).toEqual(["VR-A001", "VR-A002"]);
    for (const lane of lanes) {
      expect(lane.perimetries).toEqual([]);
      expect(lane.appointments!.length).toBeGreaterThanOrEqual(2);
      for (const a of lane.appointments!) expect(a.examinations.every((e) => !e.taken && e.deviceSn === lane.deviceSn)).toBe(true);
    }
    const types = new Set(lanes.flatMap((d) => d.appointments!.flatMap((a) => a.examinations.map((e) => e.type))));
    expect([...types].sort()).toEqual(["acuity", "amsler", "color-blindness", "perimetry"]);
    // The seeded perimetry examinations pass the server's own rules (sent back unchanged, they are accepted).
    for (const e of lanes.flatMap((d) => d.appointments!.flatMap((a) => a.examinations)).filter((e) => e.type === "perimetry")) {
      const body = { id: e.id, patientId: e.patientId, type: e.type, deviceSn: e.deviceSn!, eye: e.eye, notes: e.notes, config: e.config };
      expect((await call(server.url, "examination.update", { query: { id: e.id }, body }, token)).status).toBe(200);
    }
    expect(await login(server.url, "appt.user")).toEqual(expect.any(String));
  });

  it("has one done appointment: both eyes' 24-2 perimetry examinations taken, with results, queued on no lane", async () => {
    const token = await login(server.url, "appt.user");
    const taken = await ok(server.url, "examination.all", { query: { taken: true } }, token);
    expect(taken.map((e) => `${e.type} ${e.eye}`).sort()).toEqual([`perimetry ${Eye.Left}`, `perimetry ${Eye.Right}`].sort());
    const [first, second] = taken;
    expect(first!.appointmentId).toBe(second!.appointmentId);
    expect(new Set(taken.map((e) => e.patientId)).size).toBe(1);
    for (const e of taken) {
      expect(Result.isSuccess(decode(MeasurementResultSchema, e.result))).toBe(true);
      expect(e.result).toMatchObject({
        eye: e.eye,
        pattern: Pattern.P24_2,
        strategy: Strategy.DS,
        patientId: e.patientId,
        measurementId: e.id,
      });
      expect(Date.parse((e.result as { takenAt: string }).takenAt)).toBeLessThan(Date.now());
    }
    // What the patient's perimetry page asks for (web/pages/patient/PerimetryPage.tsx).
    const page = await ok(
      server.url,
      "examination.all",
      { query: { patientId: first!.patientId, examinationType: "perimetry", taken: true } },
      token,
    );
    expect(page.map((e) => e.id).sort()).toEqual(taken.map((e) => e.id).sort());
    const queued = (await ok(server.url, "device.all", {}, token)).flatMap((d) => d.appointments!.map((a) => a.id));
    expect(queued).not.toContain(first!.appointmentId);
  });

  it("stays apart from the first clinic, which keeps the measurement variant and stays the oldest organisation", async () => {
    const token = await login(server.url, "manager");
    expect((await ok(server.url, "organisation.current", {}, token)).multiTests).toBe(false);
    const sns = (await ok(server.url, "device.all", {}, token)).map((d) => d.deviceSn);
    expect(sns).toEqual(["VR-0001", "VR-0002", "VR-0003"]);
    const oldest = (await server.db.query<{ name: string }>("select name from organisations order by created_at limit 1"))[0]!.name;
    expect(oldest).toBe("Isopter Demo Eye Clinic");
  });

  it("is seeded once, and added on a later start to a data directory from before it", async () => {
    const again = await seedDemo(server.db, { password: DEMO_PASSWORD, headsets: 3, results: "fixtures" });
    expect([again.created, again.appointments.created]).toEqual([false, false]);
    expect((await server.db.query("select 1 from organisations")).length).toBe(2);
    await server.db.transaction((tx) => tx.query("delete from organisations where name = 'Isopter Demo Appointments Clinic'"));
    const later = await seedDemo(server.db, { password: DEMO_PASSWORD, headsets: 3, results: "fixtures" });
    expect([later.created, later.appointments.created]).toEqual([false, true]);
    const token = await login(server.url, "appt.manager");
    expect((await ok(server.url, "device.all", {}, token)).every((d) => d.appointments!.length > 0)).toBe(true);
    const oldest = (await server.db.query<{ name: string }>("select name from organisations order by created_at limit 1"))[0]!.name;
    expect(oldest).toBe("Isopter Demo Eye Clinic");
  });
});
