import { Result, Schema } from "effect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Standalone, decodeServerMessage } from "../../core/device/protocol.ts";
import { Eye, Pattern, Strategy } from "../../core/model/enums.ts";
import { credentialFor, fakeHeadset, login, ok, startTestServer, type Backend, type TestServer } from "./harness.ts";
import { dayFromNow, homeResult, programmeBody } from "./home-fixtures.ts";

// A lent headset against the running server (issue 31 §1, §5 and "Bad input"): it gets the programme's test and
// schedule as its stand-alone setting and nothing else; each result is stored once per session and eye, a repeat is
// recognised as already stored, a result for a session not due is refused naming why, and after the headset is
// returned or revoked nothing of the patient is sent or written. Every outcome is in the audit trail with the serial
// and the address the upload came from.

type Frame = Record<string, unknown>;

export const homeHeadsetsSuite = (backend: Backend) =>
  describe(`home headsets on ${backend}`, () => {
    let server: TestServer;
    let base: string;
    let manager: string;

    const patient = async (name: string) =>
      ok(
        base,
        "patient.register",
        { body: { name, uniqueId: `H-${Math.random().toString(36).slice(2, 10)}`, gender: 1, lang: "en", birthdate: "1958-03-03" } },
        manager,
      );
    const count = async (sql: string, params: unknown[]) => (await server.db.query<{ n: number }>(sql, params))[0]!.n;
    const measurementsOf = (patientId: string) =>
      count("select count(*)::int as n from measurements where patient_id = $1 and result is not null", [patientId]);
    /** The headset's answer to an upload (resultAccepted, with `refused` when it was not stored). */
    const upload = async (h: Awaited<ReturnType<typeof fakeHeadset>>, standaloneId: string, resultId: string, result: unknown) => {
      const seen = h.received.length;
      h.send({ type: "standaloneResult", standaloneId, resultId, result });
      return h.next((m) => m.type === "resultAccepted" && m.resultId === resultId && h.received.indexOf(m) >= seen);
    };
    const auditOf = async (sn: string) => {
      await server.ctx.audit.flush();
      return server.db.query<{ outcome: string; address: string; patient_id: string; actor_id: string }>(
        "select outcome, address, patient_id, actor_id from audit_events where action = 'device.homeResult' and actor_id = $1 order by id",
        [sn],
      );
    };

    beforeAll(async () => {
      server = await startTestServer(backend, { settings: { commandTimeoutMs: 400, deviceSilenceMs: 60_000 } });
      base = server.url;
      manager = await login(base, "manager");
    }, 180_000);
    afterAll(async () => server?.drop());

    it("a lent headset gets the programme's test and schedule (older headsets read it as plain stand-alone) and an empty queue", async () => {
      const p = await patient("Home Setting");
      const h = await fakeHeadset(server, "VR-0002");
      await h.next((m) => m.type === "queue" && (m.items as unknown[]).length > 0); // the demo's queued measurements
      const made = await ok(base, "home.programmeCreate", { body: programmeBody(p.id, "VR-0002") }, manager);
      const setting = await h.next((m) => m.type === "standalone" && m.standaloneId === made.standaloneId);
      expect(setting).toMatchObject({
        config: { patientId: p.id, eye: Eye.Both, pattern: Pattern.P24_2, strategy: Strategy.DS, tutorial: true, audioGuide: true },
        home: {
          programmeId: made.id,
          eyes: [Eye.Right, Eye.Left],
          frequency: { kind: "weekly" },
          start: made.start,
          end: made.end,
          reminderTime: "18:30",
          timeZone: "UTC",
        },
      });
      expect(Result.isSuccess(decodeServerMessage(setting))).toBe(true);
      // A headset whose protocol has no `home` decodes the same frame as the stand-alone setting it always knew.
      const older = Schema.Struct({
        type: Schema.Literal("standalone"),
        standaloneId: Schema.NullOr(Schema.String),
        config: Standalone.fields.config,
      });
      expect(Result.isSuccess(Schema.decodeUnknownResult(older)(setting))).toBe(true);
      await h.next((m) => m.type === "queue" && (m.items as unknown[]).length === 0);
      await ok(base, "home.programmeEnd", { query: { id: made.id }, body: { reason: "ended" } }, manager);
      await h.next((m) => m.type === "standalone" && m.standaloneId === null && !("home" in m));
      await h.close();
    });

    it("uploads: stored once per session and eye; a repeat is already stored; a session not due is refused with its reason; all audited", async () => {
      const p = await patient("Home Uploads");
      const sn = "VR-0003";
      const made = await ok(base, "home.programmeCreate", { body: programmeBody(p.id, sn) }, manager);
      const h = await fakeHeadset(server, sn);
      await h.next((m) => m.type === "standalone" && m.standaloneId === made.standaloneId);
      const sid = made.standaloneId;
      const now = new Date().toISOString();
      // The headset claims another patient in its result: the server stores it as the bound patient's.
      const stored = await upload(h, sid, "home-1", homeResult("someone-else", now, Eye.Right));
      expect(stored.refused).toBeUndefined();
      expect(await measurementsOf(p.id)).toBe(1);
      // First use done: the setting comes again without the tutorial.
      await h.next((m) => m.type === "standalone" && (m.config as Frame | null)?.tutorial === false);
      // The same upload again (the outbox after a cut): acknowledged, not stored twice.
      expect((await upload(h, sid, "home-1", homeResult("someone-else", now, Eye.Right))).refused).toBeUndefined();
      expect(await measurementsOf(p.id)).toBe(1);
      // Not due: the right eye's session is done; before the start; another test.
      const refused = async (id: string, result: unknown) => (await upload(h, sid, id, result)).refused;
      expect(await refused("home-2", homeResult(p.id, now, Eye.Right, 8))).toBe("not-due: already-done");
      expect(await refused("home-3", homeResult(p.id, `${dayFromNow(-40)}T10:00:00.000Z`, Eye.Left))).toBe("not-due: before-start");
      expect(await refused("home-4", { ...homeResult(p.id, now, Eye.Left), pattern: Pattern.G })).toBe("not-due: other-test");
      expect(await refused("home-2", homeResult(p.id, now, Eye.Right, 8))).toBe("not-due: already-done"); // refused again, not stored
      expect((await upload(h, sid, "home-5", homeResult(p.id, now, Eye.Left))).refused).toBeUndefined();
      expect(await measurementsOf(p.id)).toBe(2);
      expect(await count("select count(*)::int as n from home_results where programme_id = $1", [made.id])).toBe(2);
      expect(await count("select count(*)::int as n from standalone_results where device_sn = $1", [sn])).toBe(2);
      const results = await ok(base, "perimetry.all", { query: { patientId: p.id } }, manager);
      expect(results.filter((m) => m.result !== null).every((m) => m.result!.patientId === p.id)).toBe(true);
      // This week's session is done, the three before it missed.
      expect(await ok(base, "home.adherence", { query: { id: made.id } }, manager)).toMatchObject({
        due: 4,
        done: 1,
        missed: 3,
        rate: 0.25,
      });
      const trail = await auditOf(sn);
      expect(trail.map((e) => e.outcome)).toEqual([
        "success",
        "already-stored",
        "refused: not-due: already-done",
        "refused: not-due: before-start",
        "refused: not-due: other-test",
        "refused: not-due: already-done",
        "success",
      ]);
      for (const e of trail) expect(e).toMatchObject({ actor_id: sn, patient_id: p.id, address: expect.stringMatching(/127\.0\.0\.1/) });
      await ok(base, "home.programmeEnd", { query: { id: made.id }, body: { reason: "ended" } }, manager);
      await h.close();
    });

    it("returned: the setting is cleared and pushed at once, later uploads are refused and nothing is stored", async () => {
      const p = await patient("Home Returned");
      const sn = "VR-0002";
      const made = await ok(base, "home.programmeCreate", { body: programmeBody(p.id, sn) }, manager);
      const h = await fakeHeadset(server, sn);
      await h.next((m) => m.type === "standalone" && m.standaloneId === made.standaloneId);
      const mark = h.received.length;
      await ok(base, "home.programmeEnd", { query: { id: made.id }, body: { reason: "returned" } }, manager);
      await h.next((m) => m.type === "standalone" && m.standaloneId === null && h.received.indexOf(m) >= mark);
      // The lane's queue comes back: the headset is at the clinic again.
      await h.next((m) => m.type === "queue" && (m.items as unknown[]).length > 0 && h.received.indexOf(m) >= mark);
      const late = await upload(h, made.standaloneId, "late-1", homeResult(p.id, new Date().toISOString(), Eye.Right));
      expect(late.refused).toBe("returned");
      expect(await measurementsOf(p.id)).toBe(0);
      expect((await auditOf(sn)).at(-1)).toMatchObject({ outcome: "refused: returned", patient_id: p.id });
      await h.close();
    });

    it("revoked: the binding ends with the credential; the headset is refused at once and cannot be bound again until enrolled", async () => {
      const p = await patient("Home Revoked");
      const sn = "VR-0003";
      const credential = await credentialFor(server, sn);
      const made = await ok(base, "home.programmeCreate", { body: programmeBody(p.id, sn) }, manager);
      const h = await fakeHeadset(server, sn, { credential });
      await h.next((m) => m.type === "standalone" && m.standaloneId === made.standaloneId);
      const device = (await ok(base, "device.enrolments", {}, manager)).find((d) => d.deviceSn === sn)!;
      await ok(base, "device.revoke", { query: { id: device.id } }, manager);
      expect(await h.next((m) => m.type === "refused")).toMatchObject({ reason: "revoked" });
      const [ended] = await ok(base, "home.programmes", { query: { patientId: p.id } }, manager);
      expect(ended).toMatchObject({ state: "ended", endedReason: "revoked" });
      expect((await ok(base, "device.all", {}, manager)).find((d) => d.deviceSn === sn)?.standaloneId).toBeNull();
      // The revoked credential is refused before it can upload anything.
      const again = await fakeHeadset(server, sn, { credential });
      expect(again.received.map((m) => m.type)).toEqual(["refused"]);
      const rebind = await ok(base, "home.programmeCreate", { body: programmeBody(p.id, sn) }, manager).catch((e: Error) => e.message);
      expect(rebind).toMatch(/409 conflict/);
      expect(await measurementsOf(p.id)).toBe(0);
      await credentialFor(server, sn); // enrolled again for whatever runs next
    });

    it("a result dated in the future (past 5 minutes of clock skew) is refused, audited and logged; within the skew it is taken", async () => {
      const p = await patient("Home Future");
      const sn = "VR-0002";
      const made = await ok(base, "home.programmeCreate", { body: programmeBody(p.id, sn, { eyes: [Eye.Right] }) }, manager);
      const h = await fakeHeadset(server, sn);
      await h.next((m) => m.type === "standalone" && m.standaloneId === made.standaloneId);
      const ahead = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
      // Next week's session, taken "tomorrow" by a clock set ahead: refused, nothing stored.
      const tomorrow = await upload(h, made.standaloneId, "f-1", homeResult(p.id, `${dayFromNow(8)}T10:00:00.000Z`, Eye.Right));
      expect(tomorrow.refused).toBe("not-due: in-the-future");
      expect((await upload(h, made.standaloneId, "f-2", homeResult(p.id, ahead(10), Eye.Right))).refused).toBe("not-due: in-the-future");
      expect(await measurementsOf(p.id)).toBe(0);
      // A clock two minutes fast is skew: taken.
      expect((await upload(h, made.standaloneId, "f-3", homeResult(p.id, ahead(2), Eye.Right))).refused).toBeUndefined();
      expect(await measurementsOf(p.id)).toBe(1);
      expect((await auditOf(sn)).slice(-3).map((e) => [e.outcome, e.patient_id])).toEqual([
        ["refused: not-due: in-the-future", p.id],
        ["refused: not-due: in-the-future", p.id],
        ["success", p.id],
      ]);
      await ok(base, "home.programmeEnd", { query: { id: made.id }, body: { reason: "ended" } }, manager);
      await h.close();
    });

    it("trashing the patient ends the programme in the same transaction: setting cleared, uploads refused and audited; a restore does not restart it", async () => {
      const p = await patient("Home Trashed");
      const sn = "VR-0003";
      const made = await ok(base, "home.programmeCreate", { body: programmeBody(p.id, sn) }, manager);
      const h = await fakeHeadset(server, sn);
      await h.next((m) => m.type === "standalone" && m.standaloneId === made.standaloneId);
      const mark = h.received.length;
      await ok(base, "patient.trash", { query: { id: p.id } }, manager);
      await h.next((m) => m.type === "standalone" && m.standaloneId === null && h.received.indexOf(m) >= mark);
      const [ended] = await ok(base, "home.programmes", { query: { patientId: p.id } }, manager);
      expect(ended).toMatchObject({ id: made.id, state: "ended", endedReason: "ended" });
      // The lent headset's credential writes nothing into the binned patient.
      const late = await upload(h, made.standaloneId, "t-1", homeResult(p.id, new Date().toISOString(), Eye.Right));
      expect(late.refused).toBe("ended");
      expect(await measurementsOf(p.id)).toBe(0);
      expect((await auditOf(sn)).at(-1)).toMatchObject({ outcome: "refused: ended", patient_id: p.id });
      // Restored: the programme stays ended and the headset gets no setting of the patient.
      await ok(base, "patient.restore", { query: { id: p.id } }, manager);
      expect((await ok(base, "home.programmes", { query: { patientId: p.id } }, manager))[0]).toMatchObject({ state: "ended" });
      expect((await ok(base, "device.all", {}, manager)).find((d) => d.deviceSn === sn)?.standaloneId).toBeNull();
      expect((await upload(h, made.standaloneId, "t-2", homeResult(p.id, new Date().toISOString(), Eye.Left))).refused).toBe("ended");
      await h.close();
    });
  });
