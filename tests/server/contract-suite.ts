import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Result } from "effect";
import { endpoints, type Endpoint } from "../../core/model/contract/index.ts";
import { decodeLiveEvent } from "../../core/model/live.ts";
import { isLiveEvent, type LiveEvent, type LiveMessage } from "../../core/model/live.ts";
import { Eye, Pattern, Strategy, TestType } from "../../core/model/enums.ts";
import { examinationConfigOf, measurementConfigWith } from "../../core/rules/defaults.ts";
import type { MeasurementBody } from "../../core/model/measurement.ts";
import type { ExaminationPayload } from "../../core/model/examination.ts";
import { demoResult } from "../../simulator/server/demo/results.ts";
import { CURRENT_NORMATIVE_VERSION, DEFAULT_NORMATIVE_VERSION } from "../../core/analytics/normative/registry.ts";
import { newId } from "../../simulator/server/store/ids.ts";
import { call, fakeHeadset, liveSocket, login, ok, raw, startTestServer, type Backend, type TestServer } from "./harness.ts";
import { perimetryPageCases } from "./perimetry-page-suite.ts";
import { importCases } from "./import-suite.ts";
import { secondFactorCases } from "./second-factor-suite.ts";
import { ssoContractCases } from "./sso-contract-cases.ts";
import { homeContractCases } from "./home-contract-cases.ts";
import { reviewContractCases } from "./review-contract-cases.ts";

// The contract suite: every call of both seeds' call tables (and our template and profile calls) against a running
// server, with the seeds' behaviour: paging, filters, lifecycle with cascade, revisions and 409, stand-alone, results,
// invitations, password reset through the outbox, live events within the organisation. Answers are decoded with the
// contract (harness.call), and every live event's data with core/model/live-data.

const exercised = new Set<Endpoint>();

const isEvent =
  (type: string, operation: string, test: (e: LiveEvent) => boolean = () => true) =>
  (m: LiveMessage) =>
    isLiveEvent(m) && m.type === type && m.operation === operation && test(m);

const measurementBody = (patientId: string, deviceSn: string, over: Partial<MeasurementBody> = {}): MeasurementBody =>
  measurementConfigWith({
    patientId,
    deviceSn,
    displayName: "Test",
    eye: Eye.Right,
    pattern: Pattern.P24_2,
    strategy: Strategy.DS,
    ...over,
  });

const perimetryExam = (patientId: string, deviceSn: string, eye: Eye = Eye.Right): ExaminationPayload => ({
  patientId,
  type: TestType.Perimetry,
  deviceSn,
  eye,
  notes: "",
  config: examinationConfigOf(measurementConfigWith({ pattern: Pattern.P24_2, strategy: Strategy.DS })),
});

const amslerExam = (patientId: string, deviceSn: string): ExaminationPayload => ({
  patientId,
  type: TestType.Amsler,
  deviceSn,
  eye: Eye.Left,
  notes: "",
  config: null,
});

export const contractSuite = (backend: Backend) =>
  describe(`contract suite on ${backend}`, () => {
    let server: TestServer;
    let base: string;
    let manager: string;
    let live: Awaited<ReturnType<typeof liveSocket>>;
    const c = <E extends Endpoint>(name: E, input: Parameters<typeof call<E>>[2], token = manager) => {
      exercised.add(name);
      return call(base, name, input, token);
    };
    const o = <E extends Endpoint>(name: E, input: Parameters<typeof ok<E>>[2], token = manager) => {
      exercised.add(name);
      return ok(base, name, input, token);
    };
    const devices = async () => o("device.all", {});
    const device = async (sn: string) => (await devices()).find((d) => d.deviceSn === sn)!;
    const newPatient = async (name: string, birthdate = "1960-05-05") =>
      o("patient.register", { body: { name, uniqueId: `U-${newId().slice(0, 8)}`, gender: 0, lang: "en", birthdate } });

    beforeAll(async () => {
      server = await startTestServer(backend, { settings: { commandTimeoutMs: 400, deviceSilenceMs: 60_000 } });
      base = server.url;
      manager = await login(base, "manager");
      exercised.add("login");
      live = await liveSocket(base, manager);
    }, 180_000);
    afterAll(async () => {
      live?.close();
      await server?.drop();
    });

    it("version answers without a token; every other call but login, reset and sign-up needs one", async () => {
      expect((await c("version", {}, undefined as never)).data.version).toMatch(/^\d+\.\d+\.\d+/);
      const r = await raw(base, "GET", "patient/all");
      expect(r.status).toBe(401);
      expect(r.json.responseType).toBe("unauthorized");
      const bad = await raw(base, "GET", "patient/all", undefined, "not.a.token");
      expect(bad.status).toBe(401);
      expect(bad.json.responseType).toBe("token_verification_error");
    });

    it("login: a wrong password is 401 invalid_credentials; check_token answers the payload; answers carry a fresh token", async () => {
      const wrong = await c("login", { body: { username: "manager", password: "nope-Nope-1!" } }, undefined as never);
      expect(wrong.status).toBe(401);
      expect(wrong.responseType).toBe("invalid_credentials");
      const check = await c("checkToken", {});
      expect(check.data).toMatchObject({ role: "manager", username: "manager", email: "manager@demo.isopter.test" });
      expect(check.data.exp * 1000).toBeGreaterThan(Date.now());
      expect(check.accessToken).toEqual(expect.any(String));
    });

    it("organisation/current and the user profile (market and country for the manual)", async () => {
      const org = await o("organisation.current", {});
      expect(org).toMatchObject({ name: "Isopter Demo Eye Clinic", multiTests: false, market: "MDR", country: "DE" });
      const profile = await o("user.profile", {});
      expect(profile).toMatchObject({ username: "manager", role: "manager", market: "MDR", country: "DE", organisationId: org.id });
    });

    it("patients: register (data.id), get, update, unknown id 404, bad fields 400 naming the field, duplicate uniqueId 409", async () => {
      const p = await newPatient("  Zora Quill  ");
      expect(p.id).toEqual(expect.any(String));
      expect(p.name).toBe("Zora Quill"); // "Patient name and uniqueId are trimmed"
      await live.next(isEvent("patient", "insert", (e) => (e.data as { id: string }).id === p.id));
      expect(await o("patient.get", { query: { id: p.id } })).toMatchObject({ name: "Zora Quill", trashedAt: null });
      const updated = await o("patient.update", {
        query: { id: p.id },
        body: { name: "Zora Quillon", uniqueId: p.uniqueId, gender: 0, lang: "de", birthdate: "1960-05-05" },
      });
      expect(updated).toMatchObject({ name: "Zora Quillon", lang: "de" });
      expect((await c("patient.get", { query: { id: "no-such-id" } })).status).toBe(404);
      const tooOld = await c("patient.register", {
        body: { name: "Old One", uniqueId: "OLD-1", gender: 1, lang: "en", birthdate: "1900-01-01" },
      });
      expect([tooOld.status, tooOld.error?.field]).toEqual([400, "body.birthdate"]);
      const special = await c("patient.register", {
        body: { name: "Bad <name>", uniqueId: "X-1", gender: 1, lang: "en", birthdate: "1970-01-01" },
      });
      expect([special.status, special.error?.field]).toEqual([400, "body.name"]);
      const dup = await c("patient.register", {
        body: { name: "Twin", uniqueId: p.uniqueId, gender: 1, lang: "en", birthdate: "1970-01-01" },
      });
      expect([dup.status, dup.responseType]).toEqual([409, "conflict"]);
      const missing = await raw(base, "POST", "patient/register", { name: "No gender" }, manager);
      expect(missing.status).toBe(400);
      expect((missing.json.data as { field: string }).field).toMatch(/^body\./);
    });

    it("patient search pages with {entries, remaining, page} and filters by name and birthdate", async () => {
      for (const n of ["Xylo Alpha", "Xylo Beta", "Xylo Gamma"]) await newPatient(n, n.endsWith("Beta") ? "1971-02-03" : "1980-01-01");
      const page0 = await o("patient.search", { body: { filter: { name: "xylo", birthdate: null }, page: 0, quantity: 2 } });
      expect(page0.entries.map((p) => p.name)).toEqual(["Xylo Alpha", "Xylo Beta"]);
      expect([page0.remaining, page0.page]).toEqual([1, 0]);
      const page1 = await o("patient.search", { body: { filter: { name: "xylo", birthdate: null }, page: 1, quantity: 2 } });
      expect(page1.entries.map((p) => p.name)).toEqual(["Xylo Gamma"]);
      expect(page1.remaining).toBe(0);
      const born = await o("patient.search", { body: { filter: { name: "xylo", birthdate: "1971-02-03" }, page: 0, quantity: 10 } });
      expect(born.entries.map((p) => p.name)).toEqual(["Xylo Beta"]);
      const byId = await o("patient.search", { body: { filter: { name: "P-1001", birthdate: null }, page: 0, quantity: 10 } });
      expect(byId.entries.map((p) => p.name)).toEqual(["Anna Schmidt"]);
      expect((await o("patient.all", {})).length).toBeGreaterThanOrEqual(36);
    });

    it("patient search: paging while remaining > 0 walks every match once in name order; remaining counts at most 100 ahead", async () => {
      // A name no other test uses: the counts below are exact.
      const names = Array.from({ length: 125 }, (_, i) => `Qaxtrel ${String(i).padStart(3, "0")}`);
      for (const n of names) await newPatient(n);
      const walk = async (name: string, quantity: number) => {
        const seen: string[] = [];
        const remainings: number[] = [];
        for (let page = 0; ; page++) {
          const r = await o("patient.search", { body: { filter: { name, birthdate: null }, page, quantity } });
          seen.push(...r.entries.map((p) => p.name));
          remainings.push(r.remaining);
          if (r.remaining <= 0) return { seen, remainings };
        }
      };
      // A text of three characters or more (the trigram index), one of one character (the name-order walk), mixed case.
      for (const text of ["qaxtrel", "AXTRE", "q"]) {
        const { seen, remainings } = await walk(text, 30);
        expect(seen.filter((n) => n.startsWith("Qaxtrel"))).toEqual(names);
        // Page 0 has 95 after it: counted exactly; the last page says 0.
        if (text !== "q") expect(remainings).toEqual([95, 65, 35, 5, 0]);
      }
      const small = await o("patient.search", { body: { filter: { name: "qaxtrel", birthdate: null }, page: 0, quantity: 5 } });
      expect(small.remaining).toBe(100); // 120 follow: counted up to 100, which paging reads as "more"
      const beyond = await o("patient.search", { body: { filter: { name: "qaxtrel", birthdate: null }, page: 9, quantity: 30 } });
      expect([beyond.entries, beyond.remaining]).toEqual([[], 0]);
    });

    it("lifecycle: a trashed patient leaves search and lists, its measurements leave the lanes (revision + 1), restore brings both back, delete is for good", async () => {
      const p = await newPatient("Trash Candidate");
      const sn = (await devices())[0]!.deviceSn;
      const [m] = await o("perimetry.register", { body: measurementBody(p.id, sn) });
      const before = await device(sn);
      expect(before.perimetries.map((x) => x.id)).toContain(m!.id);
      await o("patient.trash", { query: { id: p.id } });
      await live.next(isEvent("patient", "trash", (e) => (e.data as { id: string }).id === p.id));
      const after = await device(sn);
      expect(after.perimetries.map((x) => x.id)).not.toContain(m!.id);
      expect(after.revision).toBe(before.revision + 1);
      expect((await o("patient.allTrashed", {})).map((x) => x.id)).toContain(p.id);
      expect((await o("patient.all", {})).map((x) => x.id)).not.toContain(p.id);
      const search = await o("patient.search", { body: { filter: { name: "Trash Candidate", birthdate: null }, page: 0, quantity: 5 } });
      expect(search.entries).toEqual([]);
      const restored = await o("patient.restore", { query: { id: p.id } });
      expect(restored.trashedAt).toBeNull();
      const back = await device(sn);
      expect(back.perimetries.map((x) => x.id)).toContain(m!.id);
      expect(back.revision).toBe(after.revision + 1);
      await o("patient.trash", { query: { id: p.id } });
      expect(await o("patient.delete", { query: { id: p.id } })).toEqual({ id: p.id });
      expect((await c("patient.get", { query: { id: p.id } })).status).toBe(404);
      expect((await c("perimetry.get", { query: { id: m!.id } })).status).toBe(404);
      expect((await c("patient.delete", { query: { id: p.id } })).status).toBe(404);
    });

    it("perimetry: a clone (register with cloned true, the form's clone mode) is stored and listed with the 'cloned flag' (scheduling seed §3); the seed's body alone stores cloned false", async () => {
      const p = await newPatient("Clo Ned");
      const sn = (await devices())[1]!.deviceSn;
      const plain = await o("perimetry.register", { body: measurementBody(p.id, sn) });
      const clones = await o("perimetry.register", { body: { ...measurementBody(p.id, sn, { eye: Eye.Both }), cloned: true } });
      expect([...plain, ...clones].map((m) => m.cloned)).toEqual([false, true, true]);
      const stored = await o("perimetry.all", { query: { patientId: p.id } });
      expect(Object.fromEntries(stored.map((m) => [m.id, m.cloned]))).toEqual({
        [plain[0]!.id]: false,
        [clones[0]!.id]: true,
        [clones[1]!.id]: true,
      });
      expect((await o("perimetry.get", { query: { id: clones[0]!.id } })).cloned).toBe(true);
    });

    it("perimetry: register 'Both' creates a paired right and left in the lane; notes-only, flags and full updates; the rules of core/rules refuse bad configs", async () => {
      const p = await newPatient("Per Imetry");
      const sn = (await devices())[1]!.deviceSn;
      const rev = (await device(sn)).revision;
      const pair = await o("perimetry.register", { body: measurementBody(p.id, sn, { eye: Eye.Both }) });
      expect(pair.map((m) => m.eye)).toEqual([Eye.Right, Eye.Left]);
      expect(pair[1]!.isFollowingEye).toBe(pair[0]!.id);
      await live.next(isEvent("measurement", "insert", (e) => (e.data as { id: string }).id === pair[1]!.id));
      const lane = await device(sn);
      expect(lane.perimetries.slice(-2).map((m) => m.id)).toEqual(pair.map((m) => m.id));
      expect(lane.revision).toBe(rev + 1);
      expect((await o("perimetry.all", { query: { patientId: p.id } })).length).toBe(2);
      expect(await o("perimetry.get", { query: { id: pair[0]!.id } })).toMatchObject({ id: pair[0]!.id, result: null });
      // "a body with only notes updates notes (status 200 is success)"
      const noted = await o("perimetry.update", { query: { id: pair[0]!.id }, body: { notes: "Patient tired" } });
      expect(noted).toMatchObject({ notes: "Patient tired", pattern: Pattern.P24_2 });
      const tooLong = await c("perimetry.update", { query: { id: pair[0]!.id }, body: { notes: "x".repeat(257) } });
      expect([tooLong.status, tooLong.error?.field]).toEqual([400, "body.notes"]);
      const full = await o("perimetry.update", {
        query: { id: pair[0]!.id },
        body: measurementBody(p.id, sn, { pattern: Pattern.G, displayName: "Renamed" }),
      });
      expect(full).toMatchObject({ pattern: Pattern.G, displayName: "Renamed" });
      // "SORS strategies are not offered for 10-2 or 30-2."
      const sors102 = await c("perimetry.register", {
        body: measurementBody(p.id, sn, { pattern: Pattern.P10_2, strategy: Strategy.SORS }),
      });
      expect([sors102.status, sors102.error?.field]).toEqual([400, "body.strategy"]);
      // "'Both eyes' is offered only when creating, not when editing"
      const bothEdit = await c("perimetry.update", { query: { id: pair[0]!.id }, body: measurementBody(p.id, sn, { eye: Eye.Both }) });
      expect([bothEdit.status, bothEdit.error?.field]).toEqual([400, "body.eye"]);
      const noDevice = await c("perimetry.register", { body: measurementBody(p.id, "VR-NOPE") });
      expect([noDevice.status, noDevice.error?.field]).toEqual([404, "body.deviceSn"]);
      // trash, bin, restore, delete
      const laneRev = (await device(sn)).revision;
      await o("perimetry.trash", { query: { id: pair[1]!.id } });
      expect((await device(sn)).perimetries.map((m) => m.id)).not.toContain(pair[1]!.id);
      expect((await device(sn)).revision).toBe(laneRev + 1);
      expect((await o("perimetry.allTrashed", {})).map((m) => m.id)).toContain(pair[1]!.id);
      expect((await o("perimetry.restore", { query: { id: pair[1]!.id } })).trashedAt).toBeNull();
      expect((await device(sn)).perimetries.map((m) => m.id)).toContain(pair[1]!.id);
      expect(await o("perimetry.delete", { query: { id: pair[1]!.id } })).toEqual({ id: pair[1]!.id });
      expect((await o("perimetry.get", { query: { id: pair[0]!.id } })).isFollowingEye).toBeNull();
    });

    it("perimetry/upload stores a result once (result ready event, leaves the lane); baseline and reliable flags follow the seeds' rules", async () => {
      const p = await newPatient("Up Loader", "1955-06-06");
      const sn = (await devices())[0]!.deviceSn;
      const [m] = await o("perimetry.register", { body: measurementBody(p.id, sn) });
      const result = demoResult({
        measurementId: m!.id,
        patientId: p.id,
        takenAt: new Date().toISOString(),
        ageYears: 70,
        yearsIntoCourse: 1,
        course: "early-glaucoma",
        eye: Eye.Right,
        pattern: Pattern.P24_2,
        strategy: Strategy.DS,
        deviceAlias: "Room 1",
        seed: 7,
      });
      const done = await o("perimetry.upload", { body: { deviceSn: sn, measurementId: m!.id, standaloneId: null, result } });
      expect(done.result?.meanDefect).toBe(result.meanDefect);
      await live.next(isEvent("measurement", "measurement_result_ready", (e) => (e.data as { id: string }).id === m!.id));
      expect((await device(sn)).perimetries.map((x) => x.id)).not.toContain(m!.id);
      // Uploads are idempotent (issue 16): the same result again answers the same; a different one is a conflict.
      const again = await c("perimetry.upload", { body: { deviceSn: sn, measurementId: m!.id, standaloneId: null, result } });
      expect([again.status, again.data?.id, again.data?.result]).toEqual([200, done.id, done.result]);
      const other = await c("perimetry.upload", {
        body: { deviceSn: sn, measurementId: m!.id, standaloneId: null, result: { ...result, meanDefect: (result.meanDefect ?? 0) - 1 } },
      });
      expect([other.status, other.responseType, other.error?.field]).toEqual([409, "conflict", "body.measurementId"]);
      // Home's recent tests (our call): the five latest results, newest first; a trashed one leaves the list.
      const recent = await o("perimetry.recent", {});
      expect(recent.length).toBeLessThanOrEqual(5);
      expect(recent[0]!.id).toBe(m!.id);
      expect(recent.every((x) => x.result !== null && x.trashedAt === null)).toBe(true);
      const taken = recent.map((x) => x.result!.takenAt);
      expect(taken).toEqual([...taken].sort().reverse());
      // Baseline: at most one per eye; marking unreliable then reliable again clears it.
      const base1 = await o("perimetry.update", { query: { id: m!.id }, body: { baseline: true } });
      expect(base1.baseline).toBe(true);
      const unreliable = await o("perimetry.update", { query: { id: m!.id }, body: { reliable: false } });
      expect(unreliable.reliable).toBe(false);
      const cannot = await c("perimetry.update", { query: { id: m!.id }, body: { baseline: true } });
      expect([cannot.status, cannot.error?.field]).toEqual([400, "body.baseline"]);
      const reliableAgain = await o("perimetry.update", { query: { id: m!.id }, body: { reliable: true } });
      expect([reliableAgain.reliable, reliableAgain.baseline]).toEqual([true, false]);
      await o("perimetry.trash", { query: { id: m!.id } });
      expect((await o("perimetry.recent", {})).map((x) => x.id)).not.toContain(m!.id);
      await o("perimetry.restore", { query: { id: m!.id } });
    });

    it("baseline: 'Only results with a normative database can be baseline', by core's registry as the web decides it (an old G result has none)", async () => {
      // Accounts seed: "Only results with a normative database can be baseline"; "a default version string applies to
      // older results": that version has tables for 24-2 and 10-2 only, so a G result analysed under it has none.
      const p = await newPatient("Old Gee", "1950-03-03");
      const sn = (await devices())[0]!.deviceSn;
      const upload = async (pattern: Pattern, normativeVersion: string | null) => {
        const [m] = await o("perimetry.register", { body: measurementBody(p.id, sn, { pattern, strategy: Strategy.DS }) });
        const result = demoResult({
          measurementId: m!.id,
          patientId: p.id,
          takenAt: new Date().toISOString(),
          ageYears: 76,
          yearsIntoCourse: 2,
          course: "early-glaucoma",
          eye: Eye.Right,
          pattern,
          strategy: Strategy.DS,
          deviceAlias: "Room 1",
          seed: 11,
        });
        await o("perimetry.upload", {
          body: { deviceSn: sn, measurementId: m!.id, standaloneId: null, result: { ...result, normativeVersion } },
        });
        return m!.id;
      };
      const oldG = await upload(Pattern.G, DEFAULT_NORMATIVE_VERSION);
      const refused = await c("perimetry.update", { query: { id: oldG }, body: { baseline: true } });
      expect([refused.status, refused.error?.field]).toEqual([400, "body.baseline"]);
      expect((await o("perimetry.get", { query: { id: oldG } })).baseline).toBe(false);
      const none = await upload(Pattern.P24_2, null);
      expect((await c("perimetry.update", { query: { id: none }, body: { baseline: true } })).status).toBe(400);
      // The same pattern under a version with its tables, and an old 24-2 result under the default version, can be.
      const currentG = await upload(Pattern.G, CURRENT_NORMATIVE_VERSION);
      expect((await o("perimetry.update", { query: { id: currentG }, body: { baseline: true } })).baseline).toBe(true);
      const old242 = await upload(Pattern.P24_2, DEFAULT_NORMATIVE_VERSION);
      expect((await o("perimetry.update", { query: { id: old242 }, body: { baseline: true } })).baseline).toBe(true);
    });

    it("drag and drop of measurements: new order with revisions, 409 device_revision_conflict on a stale revision, transfer events", async () => {
      const p = await newPatient("Drag Gable");
      const [a, b] = (await devices()).slice(0, 2);
      const [m] = await o("perimetry.register", { body: measurementBody(p.id, a!.deviceSn) });
      const from = await device(a!.deviceSn);
      const to = await device(b!.deviceSn);
      const fromIds = from.perimetries.map((x) => x.id).filter((id) => id !== m!.id);
      const toIds = [m!.id, ...to.perimetries.map((x) => x.id)];
      const answer = await o("device.dragAndDropPerimetry", {
        body: {
          movedPerimetryId: m!.id,
          from: { deviceId: from.id, perimetriesIds: fromIds, revision: from.revision },
          to: { deviceId: to.id, perimetriesIds: toIds, revision: to.revision },
        },
      });
      expect(answer).toEqual({
        from: { deviceId: from.id, revision: from.revision + 1 },
        to: { deviceId: to.id, revision: to.revision + 1 },
      });
      expect((await device(b!.deviceSn)).perimetries.map((x) => x.id)).toEqual(toIds);
      await live.next(isEvent("measurement", "device_transfer_in", (e) => e.deviceSn === b!.deviceSn));
      await live.next(isEvent("drag_and_drop", "update"));
      const stale = await c("device.dragAndDropPerimetry", {
        body: {
          movedPerimetryId: m!.id,
          from: { deviceId: to.id, perimetriesIds: toIds.slice(1), revision: to.revision },
          to: { deviceId: from.id, perimetriesIds: [m!.id, ...fromIds], revision: from.revision },
        },
      });
      expect([stale.status, stale.responseType]).toEqual([409, "device_revision_conflict"]);
      // Reorder within one lane.
      const now = await device(b!.deviceSn);
      const reversed = [...now.perimetries.map((x) => x.id)].reverse();
      const within = await o("device.dragAndDropPerimetry", {
        body: {
          movedPerimetryId: m!.id,
          from: { deviceId: now.id, perimetriesIds: reversed, revision: now.revision },
          to: { deviceId: now.id, perimetriesIds: reversed, revision: now.revision },
        },
      });
      expect(within.to.revision).toBe(now.revision + 1);
      expect((await device(b!.deviceSn)).perimetries.map((x) => x.id)).toEqual(reversed);
    });

    it("drag and drop is one move of one card (core/scheduling checkMove): smuggled, swapped or unmoved cards are 409 naming the lane, and nothing changes", async () => {
      const p = await newPatient("Lane Keeper");
      const [a, b] = (await devices()).slice(0, 2);
      const [x] = await o("perimetry.register", { body: measurementBody(p.id, a!.deviceSn) });
      const [z] = await o("perimetry.register", { body: measurementBody(p.id, a!.deviceSn) });
      const pair = await o("perimetry.register", { body: measurementBody(p.id, a!.deviceSn, { eye: Eye.Both }) });
      const lanes = async () => ({ from: await device(a!.deviceSn), to: await device(b!.deviceSn) });
      const ids = (d: { perimetries: ReadonlyArray<{ id: string }> }) => d.perimetries.map((m) => m.id);
      const send = (
        moved: string,
        from: { id: string; revision: number },
        fromIds: string[],
        to: { id: string; revision: number },
        toIds: string[],
      ) =>
        c("device.dragAndDropPerimetry", {
          body: {
            movedPerimetryId: moved,
            from: { deviceId: from.id, perimetriesIds: fromIds, revision: from.revision },
            to: { deviceId: to.id, perimetriesIds: toIds, revision: to.revision },
          },
        });
      const before = await lanes();
      const [A, B] = [ids(before.from), ids(before.to)];
      expect(A).toEqual(expect.arrayContaining([x!.id, z!.id, pair[0]!.id, pair[1]!.id]));
      expect(B.length).toBeGreaterThan(0);

      // Smuggling z from lane A into lane B while moving x: the union of both lanes is unchanged, yet refused.
      const smuggle = await send(
        x!.id,
        before.from,
        A.filter((id) => id !== x!.id && id !== z!.id),
        before.to,
        [x!.id, z!.id, ...B],
      );
      expect([smuggle.status, smuggle.responseType, smuggle.error?.field]).toEqual([
        409,
        "device_revision_conflict",
        "body.from.perimetriesIds",
      ]);
      // A swap: x goes to B while B's first card comes to A.
      const swap = await send(x!.id, before.from, [...A.filter((id) => id !== x!.id), B[0]!], before.to, [x!.id, ...B.slice(1)]);
      expect([swap.status, swap.error?.field]).toEqual([409, "body.from.perimetriesIds"]);
      // Moving a card the source lane does not lose: B's own card named as moved "from" A, B reordered.
      const unmoved = await send(B[0]!, before.from, A, before.to, [...B].reverse());
      expect([unmoved.status, unmoved.error?.field]).toEqual([409, "body.movedPerimetryId"]);
      // The target loses one of its own cards to the source while gaining x.
      const lose = await send(
        x!.id,
        before.from,
        A.filter((id) => id !== x!.id),
        before.to,
        [x!.id, ...B.slice(1)],
      );
      expect([lose.status, lose.error?.field]).toEqual([409, "body.to.perimetriesIds"]);
      // One eye of a pair leaves without its partner ("A measurement paired with another-eye one moves together with it").
      const alone = await send(
        pair[1]!.id,
        before.from,
        A.filter((id) => id !== pair[1]!.id),
        before.to,
        [pair[1]!.id, ...B],
      );
      expect([alone.status, alone.error?.field]).toEqual([409, "body.from.perimetriesIds"]);
      // A card dropped between the pair in its own lane ("Cards are not droppable between linked perimetry cards").
      const between = [...A.filter((id) => id !== z!.id)];
      between.splice(between.indexOf(pair[1]!.id), 0, z!.id);
      const split = await send(z!.id, before.from, between, before.from, between);
      expect([split.status, split.error?.field]).toEqual([409, "body.to.perimetriesIds"]);
      const still = await lanes();
      expect([ids(still.from), ids(still.to), still.from.revision, still.to.revision]).toEqual([
        A,
        B,
        before.from.revision,
        before.to.revision,
      ]);

      // A valid move across lanes (the pair together, in one piece) and a valid reorder are accepted; revisions advance.
      const moved = await send(
        pair[0]!.id,
        before.from,
        A.filter((id) => id !== pair[0]!.id && id !== pair[1]!.id),
        before.to,
        [B[0]!, pair[0]!.id, pair[1]!.id, ...B.slice(1)],
      );
      expect(moved.status).toBe(200);
      expect(moved.data).toEqual({
        from: { deviceId: before.from.id, revision: before.from.revision + 1 },
        to: { deviceId: before.to.id, revision: before.to.revision + 1 },
      });
      const after = await lanes();
      expect(ids(after.to)).toEqual([B[0]!, pair[0]!.id, pair[1]!.id, ...B.slice(1)]);
      expect(ids(after.from)).toEqual(A.filter((id) => id !== pair[0]!.id && id !== pair[1]!.id));
      const reorder = [z!.id, ...ids(after.from).filter((id) => id !== z!.id)];
      const within = await send(z!.id, after.from, reorder, after.from, reorder);
      expect([within.status, within.data?.to.revision]).toEqual([200, after.from.revision + 1]);
      expect(ids(await device(a!.deviceSn))).toEqual(reorder);
    });

    it("drag and drop of appointments: only the moved appointment changes lanes; a smuggled one is 409 conflict naming the lane", async () => {
      const p = await newPatient("Appoint Keeper");
      const [a, b] = (await devices()).slice(0, 2);
      const register = (sn: string) =>
        o("appointment.registerWithExaminations", {
          body: {
            audioGuide: true,
            tutorial: false,
            trackGaze: true,
            deviceSn: sn,
            patientId: p.id,
            standaloneId: null,
            examinations: [amslerExam(p.id, sn)],
          },
        });
      const [x, z, y] = [await register(a!.deviceSn), await register(a!.deviceSn), await register(b!.deviceSn)];
      const appts = async (sn: string) => (await device(sn)).appointments!.map((x) => x.id);
      const [A, B] = [await appts(a!.deviceSn), await appts(b!.deviceSn)];
      expect(A).toEqual(expect.arrayContaining([x.id, z.id]));
      expect(B).toContain(y.id);
      const send = (moved: string, fromIds: string[], toIds: string[], to = b!) =>
        c("device.dragAndDropAppointment", {
          body: {
            movedAppointmentId: moved,
            from: { deviceId: a!.id, appointmentsIds: fromIds },
            to: { deviceId: to.id, appointmentsIds: toIds },
          },
        });
      const smuggle = await send(
        x.id,
        A.filter((id) => id !== x.id && id !== z.id),
        [x.id, z.id, ...B],
      );
      expect([smuggle.status, smuggle.responseType, smuggle.error?.field]).toEqual([409, "conflict", "body.from.appointmentsIds"]);
      const swap = await send(x.id, [...A.filter((id) => id !== x.id), y.id], [x.id, ...B.filter((id) => id !== y.id)]);
      expect([swap.status, swap.error?.field]).toEqual([409, "body.from.appointmentsIds"]);
      const unmoved = await send(y.id, A, [...B].reverse());
      expect([unmoved.status, unmoved.error?.field]).toEqual([409, "body.movedAppointmentId"]);
      expect([await appts(a!.deviceSn), await appts(b!.deviceSn)]).toEqual([A, B]);
      const revs = [(await device(a!.deviceSn)).revision, (await device(b!.deviceSn)).revision];
      const ok1 = await send(
        x.id,
        A.filter((id) => id !== x.id),
        [...B, x.id],
      );
      expect([ok1.status, ok1.data?.from.revision, ok1.data?.to.revision]).toEqual([200, revs[0]! + 1, revs[1]! + 1]);
      expect(await appts(b!.deviceSn)).toEqual([...B, x.id]);
      const rest = await appts(a!.deviceSn);
      const reordered = [...rest].reverse();
      expect((await send(z.id, reordered, reordered, a!)).status).toBe(200);
      expect(await appts(a!.deviceSn)).toEqual(reordered);
      for (const id of [x.id, z.id, y.id]) await o("appointment.delete", { query: { id } });
    });

    it("device/update: alias; a status is a command to the headset that waits for its ack (not connected, refused or silent: the command-failed error)", async () => {
      const d = (await devices())[2]!;
      const renamed = await o("device.update", { query: { id: d.id }, body: { alias: "Room Blue" } });
      expect(renamed.alias).toBe("Room Blue");
      await live.next(isEvent("device", "update", (e) => (e.data as { alias?: string }).alias === "Room Blue"));
      const offline = await c("device.update", { query: { id: d.id }, body: { status: "playing" } });
      expect([offline.status, offline.responseType]).toEqual([409, "device_not_connected"]);
      expect(offline.error?.message).toMatch(/controller or clicker/);
      const headset = await fakeHeadset(server, d.deviceSn, { ack: "ok" });
      await live.next(isEvent("connection", "update", (e) => e.deviceSn === d.deviceSn));
      headset.send({ type: "status", status: "awaitmeasurement" });
      headset.send({ type: "heartbeat", battery: { vr: 80, clicker: 55, vrCharging: false, clickerCharging: true } });
      await live.next(isEvent("device", "update", (e) => (e.data as { battery?: { vr: { level: number } } }).battery?.vr.level === 80));
      const started = await c("device.update", { query: { id: d.id }, body: { status: "playing" } });
      expect(started.status).toBe(200);
      expect((await headset.next((m) => m.type === "command")).kind).toBe("start");
      await headset.close();
      const silent = await fakeHeadset(server, d.deviceSn, { ack: "never" });
      const timedOut = await c("device.update", { query: { id: d.id }, body: { status: "stopped" } });
      expect([timedOut.status, timedOut.responseType]).toEqual([409, "device_not_connected"]);
      await silent.close();
      const refusing = await fakeHeadset(server, d.deviceSn, { ack: "refuse" });
      expect((await c("device.update", { query: { id: d.id }, body: { status: "paused" } })).status).toBe(409);
      await refusing.close();
    });

    it("heartbeats: browsers hear a battery change, not a beat that changes nothing; device/all shows the battery heard at once; the disconnect stores it", async () => {
      const d = (await devices())[1]!;
      const headset = await fakeHeadset(server, d.deviceSn, { ack: "ok" });
      await live.next(isEvent("connection", "update", (e) => e.deviceSn === d.deviceSn));
      const beat = (vr: number) =>
        headset.send({ type: "heartbeat", battery: { vr, clicker: 40, vrCharging: false, clickerCharging: false } });
      const batteryUpdate = (vr: number) =>
        isEvent(
          "device",
          "update",
          (e) => e.deviceSn === d.deviceSn && (e.data as { battery?: { vr: { level: number } } }).battery?.vr.level === vr,
        );
      beat(61);
      await live.next(batteryUpdate(61));
      const mark = live.messages.length;
      beat(61);
      beat(61);
      beat(62);
      await live.next(batteryUpdate(62), 5000, mark);
      const updates = live.messages.slice(mark).filter(isEvent("device", "update", (e) => e.deviceSn === d.deviceSn));
      expect(updates).toHaveLength(1); // only the change to 62
      const listed = (await devices()).find((x) => x.deviceSn === d.deviceSn)!;
      expect([listed.battery.vr.level, listed.battery.clicker.level, listed.connection]).toEqual([62, 40, "CONNECTED"]);
      await headset.close();
      await live.next(
        isEvent(
          "connection",
          "update",
          (e) => e.deviceSn === d.deviceSn && (e.data as { connection: string }).connection === "DISCONNECTED",
        ),
        5000,
        mark,
      );
      const stored = await server.db.query<{ battery: { vr: { level: number } }; connection: string }>(
        "select battery, connection from devices where device_sn = $1",
        [d.deviceSn],
      );
      expect([stored[0]!.battery.vr.level, stored[0]!.connection]).toEqual([62, "DISCONNECTED"]);
    });

    it("heartbeats: a steady headset is announced to browsers at least every 2 s with its status (they mark it disconnected after 4 s without a heartbeat, scheduling §4)", async () => {
      const d = (await devices())[1]!;
      const headset = await fakeHeadset(server, d.deviceSn, { ack: "ok" });
      await live.next(isEvent("connection", "update", (e) => e.deviceSn === d.deviceSn));
      const beat = () => headset.send({ type: "heartbeat", battery: { vr: 70, clicker: 40, vrCharging: false, clickerCharging: false } });
      headset.send({ type: "status", status: "awaitmeasurement" });
      beat();
      await live.next(
        isEvent(
          "device",
          "update",
          (e) => e.deviceSn === d.deviceSn && (e.data as { battery?: { vr: { level: number } } }).battery?.vr.level === 70,
        ),
      );
      const mark = live.messages.length;
      for (let i = 0; i < 9; i++) {
        await new Promise((r) => setTimeout(r, 500));
        beat();
      }
      await new Promise((r) => setTimeout(r, 200));
      const alive = live.messages.slice(mark).filter(isEvent("device", "update", (e) => e.deviceSn === d.deviceSn));
      // 4.5 s of beats every 0.5 s with nothing changed: two or three announcements, not nine; each only says connected.
      expect(alive.length).toBeGreaterThanOrEqual(2);
      expect(alive.length).toBeLessThanOrEqual(3);
      for (const e of alive)
        expect((e as { data: unknown }).data).toEqual({ deviceSn: d.deviceSn, connection: "CONNECTED", status: "awaitmeasurement" });
      await headset.close();
    });

    it("headset enrolment (issue 15): a manager enrols a serial once, lists, renames, enrols again and revokes; the secret is shown once", async () => {
      const issued = await o("device.enrol", { body: { deviceSn: " VR-C100 ", alias: "Room C", secret: "credential" } });
      expect(issued.headset).toMatchObject({
        deviceSn: "VR-C100",
        alias: "Room C",
        state: "enrolled",
        revokedAt: null,
        connection: "DISCONNECTED",
      });
      expect(issued.secret).toMatchObject({ kind: "credential", value: expect.stringMatching(/^isd1\.[\w-]{43}$/), expiresAt: null });
      await live.next(isEvent("device", "insert", (e) => (e.data as { deviceSn: string }).deviceSn === "VR-C100"));
      expect((await devices()).some((d) => d.deviceSn === "VR-C100")).toBe(true);
      const twice = await c("device.enrol", { body: { deviceSn: "VR-C100", secret: "pairingCode" } });
      expect([twice.status, twice.responseType, twice.error?.field]).toEqual([409, "conflict", "body.deviceSn"]);
      const bad = await c("device.enrol", { body: { deviceSn: "VR C/1", secret: "credential" } });
      expect([bad.status, bad.error?.field]).toEqual([400, "body.deviceSn"]);
      await o("device.update", { query: { id: issued.headset.id }, body: { alias: "Room C2" } });
      const paired = await o("device.reenrol", { query: { id: issued.headset.id }, body: { secret: "pairingCode" } });
      expect(paired.headset).toMatchObject({ state: "pairing", alias: "Room C2", pairingExpiresAt: paired.secret.expiresAt });
      const revoked = await o("device.revoke", { query: { id: issued.headset.id } });
      expect(revoked).toMatchObject({ state: "revoked", pairingExpiresAt: null });
      const list = await o("device.enrolments", {});
      expect(list.find((h) => h.deviceSn === "VR-C100")).toEqual(revoked);
      expect(list.find((h) => h.deviceSn === "VR-0001")?.state).toMatch(/^(not-enrolled|enrolled)$/);
    });

    it("the device socket: queue and progress, results, stand-alone set/unset and stand-alone results stored exactly once", async () => {
      const p = await newPatient("Head Set", "1950-01-01");
      const d = (await devices())[2]!;
      const headset = await fakeHeadset(server, d.deviceSn);
      const [m] = await o("perimetry.register", { body: measurementBody(p.id, d.deviceSn) });
      await headset.next(
        (x) => x.type === "queue" && (x.items as Array<{ measurementId?: string }>).some((i) => i.measurementId === m!.id),
      );
      headset.send({
        type: "progress",
        perimetryId: m!.id,
        appointmentId: null,
        nTested: 3,
        nLocations: 54,
        thresholds: [{ index: 0, dBValue: 28, answerTime: 420 }],
        lastUpdatedIndex: 0,
        gazeTracking: true,
      });
      const progress = await live.next(
        isEvent("measurement", "measurement_progress", (e) => (e.data as { perimetryId: string }).perimetryId === m!.id),
      );
      expect(progress).toMatchObject({ deviceSn: d.deviceSn, data: { nTested: 3, nLocations: 54 } });
      const result = demoResult({
        measurementId: m!.id,
        patientId: p.id,
        takenAt: new Date().toISOString(),
        ageYears: 76,
        yearsIntoCourse: 0,
        course: "healthy",
        eye: Eye.Right,
        pattern: Pattern.P24_2,
        strategy: Strategy.DS,
        deviceAlias: d.alias,
        seed: 3,
      });
      headset.send({ type: "result", measurementId: m!.id, result });
      await live.next(isEvent("measurement", "measurement_result_ready", (e) => (e.data as { id: string }).id === m!.id));
      expect((await o("perimetry.get", { query: { id: m!.id } })).result?.takenAt).toBe(result.takenAt);
      // stand-alone on: the headset gets the setting; data readable by id
      const { patientId: _p, deviceSn: _d, notes: _n, ...config } = measurementBody(p.id, d.deviceSn);
      const on = await o("device.standalone", { query: { deviceSn: d.deviceSn }, body: { ...config, patientId: p.id } });
      expect(on).toMatchObject({ deviceSn: d.deviceSn, config: { patientId: p.id } });
      await headset.next((x) => x.type === "standalone" && x.standaloneId === on!.id);
      expect((await o("device.standaloneData", { query: { id: on!.id } })).config.pattern).toBe(Pattern.P24_2);
      expect((await device(d.deviceSn)).standaloneId).toBe(on!.id);
      const r2 = { ...result, takenAt: new Date(Date.now() + 1000).toISOString() };
      const before = (await o("perimetry.all", { query: { patientId: p.id } })).length;
      headset.send({ type: "standaloneResult", standaloneId: on!.id, resultId: "run-1", result: r2 });
      headset.send({ type: "standaloneResult", standaloneId: on!.id, resultId: "run-1", result: r2 });
      await headset.next((x) => x.type === "resultAccepted" && headset.received.filter((y) => y.type === "resultAccepted").length === 2);
      expect((await o("perimetry.all", { query: { patientId: p.id } })).length).toBe(before + 1);
      const off = await c("device.standalone", { query: { deviceSn: d.deviceSn }, body: null });
      expect([off.status, off.responseType, off.data]).toEqual([200, "device_standalone_unset", null]);
      await headset.next((x) => x.type === "standalone" && x.standaloneId === null);
      // A stand-alone result uploaded over HTTP too.
      const on2 = await o("device.standalone", { query: { deviceSn: d.deviceSn }, body: { ...config, patientId: p.id } });
      const uploaded = await o("perimetry.upload", {
        body: { deviceSn: d.deviceSn, measurementId: null, standaloneId: on2!.id, result: r2 },
      });
      expect(uploaded.result?.measurementId).toBe(uploaded.id);
      await c("device.standalone", { query: { deviceSn: d.deviceSn }, body: null });
      // "Stand-alone mode cannot change while another measurement runs."
      headset.send({ type: "status", status: "playing" });
      await live.next(isEvent("device", "update", (e) => (e.data as { status?: string }).status === "playing"));
      const busy = await c("device.standalone", { query: { deviceSn: d.deviceSn }, body: { ...config, patientId: p.id } });
      expect([busy.status, busy.responseType]).toEqual([409, "device_busy"]);
      // Switching it off is taken at any time (issue 21): the headset hears it and starts no further repetition.
      const offWhileRunning = await c("device.standalone", { query: { deviceSn: d.deviceSn }, body: null });
      expect([offWhileRunning.status, offWhileRunning.responseType]).toEqual([200, "device_standalone_unset"]);
      expect((await device(d.deviceSn)).standaloneId).toBeNull();
      // "If a test is running on the target device ... the running item stays first": a drop ahead of it is refused.
      const runningLane = await device(d.deviceSn);
      const [extra] = await o("perimetry.register", { body: measurementBody(p.id, (await devices())[0]!.deviceSn) });
      const source = (await devices())[0]!;
      const lane = runningLane.perimetries.map((x) => x.id);
      expect(lane.length).toBeGreaterThan(0); // the demo queues two measurements on every headset
      {
        const ahead = await c("device.dragAndDropPerimetry", {
          body: {
            movedPerimetryId: extra!.id,
            from: {
              deviceId: source.id,
              perimetriesIds: source.perimetries.map((x) => x.id).filter((id) => id !== extra!.id),
              revision: source.revision,
            },
            to: { deviceId: runningLane.id, perimetriesIds: [extra!.id, ...lane], revision: runningLane.revision },
          },
        });
        expect([ahead.status, ahead.error?.field]).toEqual([409, "body.to.perimetriesIds"]);
        const behind = await c("device.dragAndDropPerimetry", {
          body: {
            movedPerimetryId: extra!.id,
            from: {
              deviceId: source.id,
              perimetriesIds: source.perimetries.map((x) => x.id).filter((id) => id !== extra!.id),
              revision: source.revision,
            },
            to: { deviceId: runningLane.id, perimetriesIds: [lane[0]!, extra!.id, ...lane.slice(1)], revision: runningLane.revision },
          },
        });
        expect(behind.status).toBe(200);
      }
      const mark = live.messages.length;
      await headset.close();
      await live.next(
        isEvent(
          "connection",
          "update",
          (e) => (e.data as { connection: string }).connection === "DISCONNECTED" && e.deviceSn === d.deviceSn,
        ),
        5000,
        mark,
      );
      expect((await device(d.deviceSn)).status).toBe("notconnected");
    });

    it("appointments and examinations: register with examinations, update, insert, reorder (409 on a wrong list), drag and drop, trash/restore/delete", async () => {
      const p = await newPatient("Appoint Ment");
      const [a, b] = (await devices()).slice(0, 2);
      const appt = await o("appointment.registerWithExaminations", {
        body: {
          audioGuide: true,
          tutorial: false,
          trackGaze: true,
          deviceSn: a!.deviceSn,
          patientId: p.id,
          standaloneId: null,
          examinations: [perimetryExam(p.id, a!.deviceSn), amslerExam(p.id, a!.deviceSn)],
        },
      });
      expect(appt.examinations.map((e) => e.type)).toEqual(["perimetry", "amsler"]);
      await live.next(isEvent("appointment", "insert", (e) => (e.data as { id: string }).id === appt.id));
      expect((await device(a!.deviceSn)).appointments?.map((x) => x.id)).toContain(appt.id);
      expect((await o("appointment.all", {})).map((x) => x.id)).toContain(appt.id);
      const bad = await c("appointment.registerWithExaminations", {
        body: {
          audioGuide: true,
          tutorial: false,
          trackGaze: true,
          deviceSn: a!.deviceSn,
          patientId: p.id,
          standaloneId: null,
          examinations: [
            {
              ...perimetryExam(p.id, a!.deviceSn),
              config: { ...perimetryExam(p.id, a!.deviceSn).config!, pattern: Pattern.P30_2, strategy: Strategy.SORS },
            },
          ],
        },
      });
      expect([bad.status, bad.error?.field]).toEqual([400, "body.examinations.0.config.strategy"]);
      const upd = await o("appointment.update", {
        query: { id: appt.id },
        body: { audioGuide: false, tutorial: false, trackGaze: true, deviceSn: a!.deviceSn, patientId: p.id, standaloneId: null },
      });
      expect(upd.audioGuide).toBe(false);
      const inserted = await o("appointment.insertExaminations", {
        query: { appointmentId: appt.id },
        body: { examinations: [amslerExam(p.id, a!.deviceSn)] },
      });
      expect(inserted.examinations.length).toBe(3);
      const ids = inserted.examinations.map((e) => e.id);
      const reordered = await o("appointment.reorderExaminations", {
        query: { id: appt.id },
        body: { newExaminationsIds: [...ids].reverse() },
      });
      expect(reordered.examinations.map((e) => e.id)).toEqual([...ids].reverse());
      await live.next(isEvent("reorder", "update", (e) => (e.data as { id: string }).id === appt.id));
      const wrong = await c("appointment.reorderExaminations", { query: { id: appt.id }, body: { newExaminationsIds: ids.slice(1) } });
      expect([wrong.status, wrong.responseType]).toEqual([409, "conflict"]);
      const fromLane = (await device(a!.deviceSn)).appointments!.map((x) => x.id);
      const toLane = (await device(b!.deviceSn)).appointments!.map((x) => x.id);
      const moved = await o("device.dragAndDropAppointment", {
        body: {
          movedAppointmentId: appt.id,
          from: { deviceId: a!.id, appointmentsIds: fromLane.filter((id) => id !== appt.id) },
          to: { deviceId: b!.id, appointmentsIds: [appt.id, ...toLane] },
        },
      });
      expect(moved.to.deviceId).toBe(b!.id);
      expect((await device(b!.deviceSn)).appointments![0]!.id).toBe(appt.id);
      await o("appointment.trash", { query: { id: appt.id } });
      expect((await o("appointment.allTrashed", {})).map((x) => x.id)).toContain(appt.id);
      expect((await device(b!.deviceSn)).appointments!.map((x) => x.id)).not.toContain(appt.id);
      expect((await o("examination.all", { query: { patientId: p.id } })).length).toBe(0);
      await o("appointment.restore", { query: { id: appt.id } });
      expect((await o("examination.all", { query: { patientId: p.id } })).length).toBe(3);
      expect(await o("appointment.delete", { query: { id: appt.id } })).toEqual({ id: appt.id });
      expect((await o("examination.all", { query: { patientId: p.id } })).length).toBe(0);
    });

    it("examinations: register (into an appointment or alone), all with taken and type filters, update full or notes, trash, delete", async () => {
      const p = await newPatient("Exam Iner");
      const sn = (await devices())[0]!.deviceSn;
      const appt = await o("appointment.registerWithExaminations", {
        body: {
          audioGuide: true,
          tutorial: false,
          trackGaze: true,
          deviceSn: sn,
          patientId: p.id,
          standaloneId: null,
          examinations: [amslerExam(p.id, sn)],
        },
      });
      const e = await o("examination.register", { body: { ...perimetryExam(p.id, sn), appointmentId: appt.id } });
      expect(e.appointmentId).toBe(appt.id);
      const alone = await o("examination.register", { body: amslerExam(p.id, sn) });
      expect(alone.appointmentId).toBeNull();
      expect((await o("examination.all", { query: { patientId: p.id, taken: false } })).length).toBe(3);
      expect((await o("examination.all", { query: { patientId: p.id, taken: true } })).length).toBe(0);
      expect((await o("examination.all", { query: { patientId: p.id, examinationType: "amsler" } })).length).toBe(2);
      const notes = await o("examination.update", { query: { id: e.id }, body: { id: e.id, notes: "left eye first" } });
      expect(notes.notes).toBe("left eye first");
      const fullBody = { id: e.id, ...perimetryExam(p.id, sn, Eye.Left) };
      expect((await o("examination.update", { query: { id: e.id }, body: fullBody })).eye).toBe(Eye.Left);
      const mismatch = await c("examination.update", { query: { id: e.id }, body: { id: alone.id, notes: "x" } });
      expect([mismatch.status, mismatch.error?.field]).toEqual([400, "body.id"]);
      expect((await o("examination.trash", { query: { id: e.id } })).trashedAt).not.toBeNull();
      expect((await o("examination.all", { query: { patientId: p.id } })).map((x) => x.id)).not.toContain(e.id);
      expect(await o("examination.delete", { query: { id: alone.id } })).toEqual({ id: alone.id });
      expect((await c("examination.delete", { query: { id: alone.id } })).status).toBe(404);
    });

    it("templates: create, list, update, copy, delete", async () => {
      const t = await o("template.create", { body: { name: "Quick check", tests: [{ type: "amsler", eye: Eye.Both, config: null }] } });
      expect((await o("template.all", {})).map((x) => x.id)).toContain(t.id);
      const u = await o("template.update", { query: { id: t.id }, body: { name: "Quick check 2", tests: t.tests } });
      expect(u.name).toBe("Quick check 2");
      const copy = await o("template.copy", { query: { id: t.id } });
      expect([copy.name, copy.id !== t.id]).toEqual(["Quick check 2 (copy)", true]);
      expect(await o("template.delete", { query: { id: copy.id } })).toEqual({ id: copy.id });
      expect((await c("template.update", { query: { id: copy.id }, body: { name: "x", tests: t.tests } })).status).toBe(404);
      const empty = await c("template.create", { body: { name: " ", tests: [] } });
      expect([empty.status, empty.error?.field]).toEqual([400, "body.name"]);
    });

    it("password reset: the e-mail goes to the outbox; the link's token sets a new password once; an unknown e-mail gets the same answer and no mail", async () => {
      const admin = await login(base, "admin");
      const unknown = await c("passwordReset.request", { body: { email: "nobody@nowhere.test" } }, undefined as never);
      expect([unknown.status, unknown.responseType]).toEqual([200, undefined]);
      expect((await raw(base, "GET", "dev/outbox?to=nobody@nowhere.test", undefined, admin)).json.data).toEqual([]);
      expect((await c("passwordReset.request", { body: { email: "user@demo.isopter.test" } }, undefined as never)).status).toBe(200);
      const outbox = await raw(base, "GET", "dev/outbox?to=user@demo.isopter.test", undefined, admin);
      const mail = (outbox.json.data as Array<{ link: string; subject: string }>)[0]!;
      const token = mail.link.split("/password-reset/")[1]!;
      expect(token.split(".")).toHaveLength(3);
      // The reset page checks its link when it opens (passwordReset.check): a fresh link passes, reading only, so the
      // same link still sets the password below; a forged one is not valid.
      const check = await c("passwordReset.check", { token }, undefined as never);
      expect([check.status, check.responseType]).toEqual([200, undefined]);
      expect((await c("passwordReset.check", { token }, undefined as never)).status).toBe(200);
      const forged = await c("passwordReset.check", { token: `${token.split(".").slice(0, 2).join(".")}.AAAA` }, undefined as never);
      expect([forged.status, forged.responseType]).toEqual([401, "token_verification_error"]);
      const weak = await c(
        "passwordReset.confirm",
        { token, body: { email: "user@demo.isopter.test", token, password: "weak" } },
        undefined as never,
      );
      expect([weak.status, weak.error?.field]).toEqual([400, "body.password"]);
      expect(
        (
          await c(
            "passwordReset.confirm",
            { token, body: { email: "user@demo.isopter.test", token, password: "New-Secret-9" } },
            undefined as never,
          )
        ).status,
      ).toBe(200);
      expect(
        (
          await c(
            "passwordReset.confirm",
            { token, body: { email: "user@demo.isopter.test", token, password: "New-Secret-8" } },
            undefined as never,
          )
        ).status,
      ).toBe(401);
      // Used: the page says so as soon as it opens, not after the form is filled in.
      const used = await c("passwordReset.check", { token }, undefined as never);
      expect([used.status, used.responseType]).toEqual([401, "token_expired"]);
      const userToken = await login(base, "user", "New-Secret-9");
      const wrongOld = await c("passwordChange", { body: { old_password: "nope", new_password: "Another-Secret-1" } }, userToken);
      expect([wrongOld.status, wrongOld.responseType]).toEqual([401, "invalid_credentials"]);
      const weakNew = await c("passwordChange", { body: { old_password: "New-Secret-9", new_password: "short" } }, userToken);
      expect([weakNew.status, weakNew.error?.field]).toEqual([400, "body.new_password"]);
      expect((await c("passwordChange", { body: { old_password: "New-Secret-9", new_password: "Demo-Pass-123" } }, userToken)).status).toBe(
        200,
      );
      expect(await login(base, "user")).toEqual(expect.any(String));
      const outsider = await raw(base, "GET", "dev/outbox", undefined, manager);
      expect(outsider.status).toBe(403);
    });

    it("users: invite (warning when some are already invited or registered), sign-up with the invitation token, list, re-role, delete", async () => {
      const admin = await login(base, "admin");
      const invited = await c("user.invite", { body: { emails: ["new.tech@demo.isopter.test"], role: "user" } });
      expect([invited.status, invited.responseType, invited.data.invited]).toEqual([200, undefined, ["new.tech@demo.isopter.test"]]);
      const mail = (
        (await raw(base, "GET", "dev/outbox?to=new.tech@demo.isopter.test", undefined, admin)).json.data as Array<{ link: string }>
      )[0]!;
      const [, invitationId, invitationToken] = /\/signup\/([^/]+)\/(.+)$/.exec(mail.link)!;
      const partial = await c("user.invite", {
        body: { emails: ["new.tech@demo.isopter.test", "second@demo.isopter.test", "user@demo.isopter.test"], role: "user" },
      });
      expect(partial.responseType).toBe("invitations_partial");
      expect(partial.data).toEqual({
        invited: ["second@demo.isopter.test"],
        alreadyInvited: ["new.tech@demo.isopter.test"],
        alreadyRegistered: ["user@demo.isopter.test"],
      });
      const none = await c("user.invite", { body: { emails: ["user@demo.isopter.test"], role: "user" } });
      expect([none.status, none.responseType]).toEqual([409, "already_registered"]);
      expect(
        (
          await c(
            "user.signup",
            {
              token: invitationToken!,
              body: { invitationId: invitationId!, password: "Tech-Secret-1", invitationToken: invitationToken! },
            },
            undefined as never,
          )
        ).status,
      ).toBe(200);
      const again = await c(
        "user.signup",
        { token: invitationToken!, body: { invitationId: invitationId!, password: "Tech-Secret-1", invitationToken: invitationToken! } },
        undefined as never,
      );
      expect([again.status, again.responseType]).toEqual([409, "already_registered"]);
      const techToken = await login(base, "new.tech@demo.isopter.test", "Tech-Secret-1");
      const all = await o("user.all", {});
      const tech = all.find((u) => u.email === "new.tech@demo.isopter.test")!;
      expect(tech).toMatchObject({ status: "active", role: "user" });
      expect(all.find((u) => u.email === "second@demo.isopter.test")).toMatchObject({ status: "invited", username: null });
      expect((await o("user.update", { query: { id: tech.id }, body: { role: "manager" } })).role).toBe("manager");
      // A role change ends the user's sessions (issue 15 §2); the next login carries the new role.
      expect((await c("checkToken", {}, techToken)).status).toBe(401);
      const again2 = await login(base, "new.tech@demo.isopter.test", "Tech-Secret-1");
      expect((await c("checkToken", {}, again2)).data.role).toBe("manager");
      expect(await o("user.delete", { query: { id: tech.id } })).toEqual({ id: tech.id });
      expect((await c("checkToken", {}, again2)).status).toBe(401);
    });

    it("live events reach only the organisation's browsers; each decodes by its type and operation (core/model/live)", async () => {
      const org2 = newId();
      const now = new Date().toISOString();
      await server.db.transaction(async (tx) => {
        await tx.query(
          "insert into organisations (id, name, multi_tests, market, country, created_at) values ($1, 'Other clinic', false, 'FDA', 'US', $2)",
          [org2, now],
        );
        await tx.query("update users set organisation_id = $1 where username = 'user'", [org2]);
      });
      const other = await liveSocket(base, await login(base, "user"));
      const p = await newPatient("Only Ours");
      await live.next(isEvent("patient", "insert", (e) => (e.data as { id: string }).id === p.id));
      await new Promise((r) => setTimeout(r, 200));
      expect(other.messages.filter(isLiveEvent)).toEqual([]);
      expect((await o("patient.all", {}, await login(base, "user"))).length).toBe(0);
      other.close();
      await server.db.transaction((tx) =>
        tx.query(
          "update users set organisation_id = (select organisation_id from users where username = 'manager') where username = 'user'",
        ),
      );
      for (const m of live.messages.filter(isLiveEvent)) {
        const decoded = decodeLiveEvent(m);
        if (Result.isFailure(decoded)) throw new Error(`${m.type}/${m.operation}: ${decoded.failure.message}`);
      }
    });

    it("audit/search: the organisation's trail for managers, newest first", async () => {
      const page = await o("audit.search", {
        body: { filter: { from: null, to: null, userId: null, patientId: null, action: null }, page: 0, quantity: 5 },
      });
      expect(page.entries.length).toBeGreaterThan(0);
      expect(page.entries.map((e) => e.id)).toEqual([...page.entries.map((e) => e.id)].sort((a, b) => b - a));
    });

    it("OpenAPI description is served and lists every call", async () => {
      const doc = (await raw(base, "GET", "openapi.json")).json as unknown as {
        openapi: string;
        paths: Record<string, Record<string, unknown>>;
      };
      expect(doc.openapi).toBe("3.1.0");
      for (const e of endpoints) expect(doc.paths[`/api/${e.path}`]?.[e.method.toLowerCase()], `${e.method} ${e.path}`).toBeDefined();
    });

    it("logout ends the session server-side record; the multi-tests switch is per organisation", async () => {
      const admin = await login(base, "admin");
      const switched = await raw(base, "PATCH", "dev/organisation", { multiTests: true }, admin);
      expect(switched.status).toBe(200);
      expect((await o("organisation.current", {})).multiTests).toBe(true);
      expect((await o("user.profile", {})).multiTests).toBe(true);
      await raw(base, "PATCH", "dev/organisation", { multiTests: false }, admin);
      expect((await c("logout", {}, admin)).status).toBe(200);
      expect((await c("checkToken", {}, admin)).status).toBe(401);
    });

    perimetryPageCases({
      server: () => server,
      c: (name, input) => c(name, input),
      o: (name, input) => o(name, input),
      newPatient,
      raw: (method, path, body) => raw(base, method, path, body, manager),
    });

    importCases({
      c: (name, input, token) => c(name, input, token),
      o: (name, input) => o(name, input),
      userToken: () => login(base, "user"),
      raw: (method, path, body) => raw(base, method, path, body, manager),
    });

    secondFactorCases({
      c: (name, input, token) => c(name, input, token),
      o: (name, input, token) => o(name, input, token),
      base: () => base,
      now: () => server.ctx.now(),
    });

    ssoContractCases({
      c: (name, input, token) => c(name, input, token),
      o: (name, input, token) => o(name, input, token),
      base: () => base,
      raw: (method, path, body) => raw(base, method, path, body, manager),
    });

    homeContractCases({
      c: (name, input, token) => c(name, input, token),
      o: (name, input, token) => o(name, input, token),
      newPatient,
      deviceSn: async () => (await devices())[1]!.deviceSn,
      userToken: () => login(base, "user"),
    });

    reviewContractCases({
      c: (name, input, token) => c(name, input, token),
      o: (name, input, token) => o(name, input, token),
      newPatient,
      deviceSn: async () => (await devices())[1]!.deviceSn,
      clinicSn: async () => (await devices())[0]!.deviceSn,
    });

    it("every call of the contract was exercised", () => {
      const missing = endpoints.map((e) => e.name).filter((n) => !exercised.has(n as Endpoint));
      expect(missing).toEqual([]);
    });
  });
