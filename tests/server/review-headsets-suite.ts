import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Eye } from "../../core/model/enums.ts";
import type { MeasurementResult } from "../../core/model/measurement-result.ts";
import { triageRunner } from "../../simulator/server/review/arrival.ts";
import { call, fakeHeadset, login, ok, startTestServer, type Backend, type TestServer } from "./harness.ts";
import { dayFromNow, homeResult, programmeBody } from "./home-fixtures.ts";

// The review queue fed by a lent headset (issue 31 §2, §3): each home result stored is triaged after its commit and
// becomes an item; an outlier against the patient's own series comes before unflagged results; its clinician is told
// once; reminders for missed sessions once each; a triage that fails leaves the result stored and its item visible.

export const reviewHeadsetsSuite = (backend: Backend) =>
  describe(`review queue fed by home headsets on ${backend}`, () => {
    let server: TestServer;
    let base: string;
    let manager: string;

    const patient = async (name: string) =>
      ok(
        base,
        "patient.register",
        { body: { name, uniqueId: `R-${Math.random().toString(36).slice(2, 10)}`, gender: 1, lang: "en", birthdate: "1958-03-03" } },
        manager,
      );
    const count = async (sql: string, params: unknown[]) => (await server.db.query<{ n: number }>(sql, params))[0]!.n;
    const upload = async (h: Awaited<ReturnType<typeof fakeHeadset>>, standaloneId: string, resultId: string, result: unknown) => {
      const seen = h.received.length;
      h.send({ type: "standaloneResult", standaloneId, resultId, result });
      return h.next((m) => m.type === "resultAccepted" && m.resultId === resultId && h.received.indexOf(m) >= seen);
    };
    const itemsOf = async (patientId: string) =>
      (await ok(base, "review.queue", { query: {} }, manager)).items.filter((i) => i.patient.id === patientId);
    /** 6 dB lower at every location: the MD falls far from the series' median. */
    const worse = (r: MeasurementResult): MeasurementResult => ({ ...r, thresholds: r.thresholds.map((t) => Math.max(0, t - 6)) });

    beforeAll(async () => {
      server = await startTestServer(backend, { settings: { commandTimeoutMs: 400, deviceSilenceMs: 60_000 } });
      base = server.url;
      manager = await login(base, "manager");
    }, 180_000);
    afterAll(async () => server?.drop());

    it("by need: an unreliable result, then an outlier against the series (before unflagged ones); its clinician is told once; each result one item", async () => {
      const p = await patient("Review Outlier");
      const sn = "VR-0002";
      const made = await ok(base, "home.programmeCreate", { body: programmeBody(p.id, sn, { eyes: [Eye.Right] }) }, manager);
      const h = await fakeHeadset(server, sn);
      await h.next((m) => m.type === "standalone" && m.standaloneId === made.standaloneId);
      const tally = (errors: number) => ({ errors, presentations: 10 });
      const caught = (r: MeasurementResult, falsePositives: number): MeasurementResult => ({
        ...r,
        gazeTracking: null,
        catchTrials: { falseNegative: tally(0), falsePositive: tally(falsePositives), blindSpot: tally(0) },
      });
      // Three weekly results, the third with 5 false positives in 10 (limit 15 %), then a result 6 dB down.
      const earlier = [-20, -13, -6].map((days, i) =>
        caught(homeResult(p.id, `${dayFromNow(days)}T10:00:00.000Z`, Eye.Right, 1 + i), i === 2 ? 5 : 0),
      );
      for (const [i, r] of earlier.entries()) expect((await upload(h, made.standaloneId, `s-${i}`, r)).refused).toBeUndefined();
      const last = caught(worse(homeResult(p.id, new Date().toISOString(), Eye.Right, 20)), 0);
      expect((await upload(h, made.standaloneId, "s-3", last)).refused).toBeUndefined();
      // The same upload again is not a second item.
      await upload(h, made.standaloneId, "s-3", last);
      const items = await itemsOf(p.id);
      expect(items.every((i) => i.kind === "result" && i.triage === "done" && i.measurementId !== null)).toBe(true);
      // By need: the unreliable result, then the outlier, then the unflagged ones, oldest first.
      expect(items.map((i) => [i.takenAt, i.flags.map((f) => f.kind)])).toEqual([
        [earlier[2]!.takenAt, ["unreliable"]],
        [last.takenAt, ["outlier"]],
        [earlier[0]!.takenAt, []],
        [earlier[1]!.takenAt, []],
      ]);
      expect(items[0]!.flags[0]!.reasons).toEqual([{ code: "false-positives", rate: 0.5, limit: 0.15 }]);
      expect(items[1]!.flags[0]!.reasons).toEqual([expect.objectContaining({ code: "md-from-median", results: 3, limit: 3 })]);
      const outliers = (await ok(base, "review.queue", { query: { flag: "outlier" } }, manager)).items.filter((i) => i.patient.id === p.id);
      expect(outliers.map((i) => i.id)).toEqual([items[1]!.id]);
      expect((await ok(base, "review.counts", {}, manager)).outlier).toBeGreaterThanOrEqual(1);
      // The programme's creator (the manager) is told of each flagged result once, and the notice is audited.
      const flagged = items.filter((i) => i.flags.length > 0).map((i) => `flagged:${i.id}`);
      expect(await count("select count(*)::int as n from review_notices where key = any($1)", [flagged])).toBe(flagged.length);
      expect(
        await count(
          "select count(*)::int as n from outbox where to_email like 'manager@%' and subject like 'A home result to review%' and body like $1",
          [`%${made.id}%`],
        ),
      ).toBe(flagged.length);
      await server.ctx.audit.flush();
      expect(await count("select count(*)::int as n from audit_events where action = 'notice.flagged' and patient_id = $1", [p.id])).toBe(
        flagged.length,
      );
      await ok(base, "home.programmeEnd", { query: { id: made.id }, body: { reason: "ended" } }, manager);
      await h.close();
    });

    it("a triage that fails leaves the result stored and an item marked 'triage failed' in the queue", async () => {
      const p = await patient("Review Failed");
      const sn = "VR-0003";
      const made = await ok(base, "home.programmeCreate", { body: programmeBody(p.id, sn, { eyes: [Eye.Right] }) }, manager);
      const h = await fakeHeadset(server, sn);
      await h.next((m) => m.type === "standalone" && m.standaloneId === made.standaloneId);
      const run = triageRunner.of;
      triageRunner.of = async () => {
        throw new Error("analysis broke");
      };
      try {
        expect((await upload(h, made.standaloneId, "f-1", homeResult(p.id, new Date().toISOString(), Eye.Right))).refused).toBeUndefined();
      } finally {
        triageRunner.of = run;
      }
      expect(await count("select count(*)::int as n from measurements where patient_id = $1 and result is not null", [p.id])).toBe(1);
      const [item] = await itemsOf(p.id);
      expect(item).toMatchObject({ kind: "result", triage: "failed", flags: [], eye: Eye.Right, state: "new" });
      expect((await ok(base, "review.counts", {}, manager)).triageFailed).toBeGreaterThanOrEqual(1);
      // The clinician's actions on it, each audited by the router; the patient's repeat message noted once.
      await ok(base, "review.note", { query: { id: item!.id }, body: { note: "Read by hand" } }, manager);
      await ok(base, "review.repeat", { query: { id: item!.id } }, manager);
      const booked = await ok(base, "review.book", { query: { id: item!.id }, body: { deviceSn: "VR-0001" } }, manager);
      expect(booked.bookedMeasurementIds.length).toBe(1);
      expect(await ok(base, "review.mark", { query: { id: item!.id }, body: {} }, manager)).toMatchObject({
        state: "reviewed",
        note: "Read by hand",
        reviewedBy: "manager",
        repeatRequestedAt: expect.any(String),
      });
      await server.ctx.audit.flush();
      const calls = await server.db.query<{ action: string; outcome: string }>(
        "select action, outcome from audit_events where action like 'review.%' and action <> 'review.counts' and action <> 'review.queue' and actor_name = 'manager' order by id desc limit 4",
        [],
      );
      expect(calls.reverse()).toEqual(
        ["review.note", "review.repeat", "review.book", "review.mark"].map((action) => ({ action, outcome: "success" })),
      );
      expect(await count("select count(*)::int as n from audit_events where action = 'notice.repeat' and record_id = $1", [item!.id])).toBe(
        1,
      );
      await ok(base, "home.programmeEnd", { query: { id: made.id }, body: { reason: "ended" } }, manager);
      await h.close();
    });

    it("a result uploaded late completes a session swept as missed: its unreviewed item goes", async () => {
      const p = await patient("Review Late");
      const sn = "VR-0003";
      const made = await ok(base, "home.programmeCreate", { body: programmeBody(p.id, sn, { eyes: [Eye.Right] }) }, manager);
      await ok(base, "review.counts", {}, manager);
      const sessions = async () => (await itemsOf(p.id)).map((i) => [i.kind, i.session?.index ?? null]);
      expect(await sessions()).toEqual([
        ["missed", 0],
        ["missed", 1],
        ["missed", 2],
      ]);
      const h = await fakeHeadset(server, sn);
      await h.next((m) => m.type === "standalone" && m.standaloneId === made.standaloneId);
      // Taken in session 1's window (13 days ago), uploaded now.
      const late = homeResult(p.id, `${dayFromNow(-13)}T10:00:00.000Z`, Eye.Right);
      expect((await upload(h, made.standaloneId, "late-1", late)).refused).toBeUndefined();
      expect((await sessions()).filter(([kind]) => kind === "missed")).toEqual([
        ["missed", 0],
        ["missed", 2],
      ]);
      await ok(base, "home.programmeEnd", { query: { id: made.id }, body: { reason: "ended" } }, manager);
      await h.close();
    });

    it("a sweep meeting an upload in progress waits for its commit: no missed item beside the session's result", async () => {
      const p = await patient("Review Race");
      const sn = "VR-0003";
      const made = await ok(base, "home.programmeCreate", { body: programmeBody(p.id, sn, { eyes: [Eye.Right] }) }, manager);
      const missed = async () =>
        (
          await server.db.query<{ session_index: number }>(
            "select session_index from review_items where programme_id = $1 and kind = 'missed' order by session_index",
            [made.id],
          )
        ).map((r) => r.session_index);
      let sweep: Promise<unknown> | undefined;
      // An upload's transaction as home/uploads.ts holds it: the headset's row locked, session 1's result written, and
      // meanwhile the queue is read (its sweep finds sessions 0-2 closed untested before the result is committed).
      await server.db.transaction(async (tx) => {
        await tx.query("select id from devices where device_sn = $1 for update", [sn]);
        sweep = ok(base, "review.counts", {}, manager);
        await new Promise((r) => setTimeout(r, 500));
        await tx.query(
          `insert into home_results (programme_id, session_index, eye, taken_at, measurement_id, device_sn, result_id, address, received_at)
           values ($1, 1, $2, $3, $4, $5, 'race-1', '127.0.0.1', $3)`,
          [made.id, Eye.Right, `${dayFromNow(-13)}T10:00:00.000Z`, `race-${made.id}`, sn],
        );
      });
      await sweep;
      expect(await missed()).toEqual([0, 2]);
      await ok(base, "home.programmeEnd", { query: { id: made.id }, body: { reason: "ended" } }, manager);
    });

    it("reminders for missed sessions: one per session however often the queue is read, each audited (no patient e-mail: noted)", async () => {
      const p = await patient("Review Reminded");
      const made = await ok(base, "home.programmeCreate", { body: programmeBody(p.id, "VR-0001") }, manager);
      for (let i = 0; i < 3; i++) await ok(base, "review.counts", {}, manager);
      await ok(base, "home.adherenceList", { query: { below: 0.5 } }, manager);
      const keys = await server.db.query<{ key: string; outcome: string }>(
        "select key, outcome from review_notices where key like $1 order by key",
        [`missed:${made.id}:%`],
      );
      expect(keys).toEqual([0, 1, 2].map((i) => ({ key: `missed:${made.id}:${i}`, outcome: "no-address" })));
      await server.ctx.audit.flush();
      const trail = await server.db.query<{ outcome: string }>(
        "select outcome from audit_events where action = 'notice.missed' and patient_id = $1",
        [p.id],
      );
      expect(trail.map((e) => e.outcome)).toEqual(Array(3).fill("not sent: no e-mail on record"));
      await ok(base, "home.programmeEnd", { query: { id: made.id }, body: { reason: "ended" } }, manager);
    });

    it("a repeat: sent to the headset in its schedule, filled once by a result its session no longer takes, then done; bad asks refused", async () => {
      const p = await patient("Review Repeat");
      const sn = "VR-0002";
      const made = await ok(base, "home.programmeCreate", { body: programmeBody(p.id, sn, { eyes: [Eye.Right] }) }, manager);
      const h = await fakeHeadset(server, sn);
      await h.next((m) => m.type === "standalone" && m.standaloneId === made.standaloneId);
      const sid = made.standaloneId;
      expect((await upload(h, sid, "r-1", homeResult(p.id, new Date().toISOString(), Eye.Right))).refused).toBeUndefined();
      const item = (await itemsOf(p.id)).find((i) => i.kind === "result")!;
      expect(item.repeat).toBeNull();
      // A missed-session item has no result to repeat.
      const missed = (await itemsOf(p.id)).find((i) => i.kind === "missed")!;
      const notResult = await call(base, "review.repeat", { query: { id: missed.id } }, manager);
      expect([notResult.status, notResult.error?.field, notResult.error?.message]).toEqual([
        400,
        "query.id",
        expect.stringMatching(/only a home result/),
      ]);

      const mark = h.received.length;
      const asked = await ok(base, "review.repeat", { query: { id: item.id } }, manager);
      const today = dayFromNow(0);
      expect(asked.repeat).toEqual({ state: "pending", from: today, to: dayFromNow(6) });
      expect(asked.repeatRequestedAt).toEqual(expect.any(String));
      const sent = await h.next((m) => m.type === "standalone" && h.received.indexOf(m) >= mark && "repeats" in (m.home as object));
      expect((sent.home as { repeats: unknown }).repeats).toEqual([{ number: 1, eyes: [Eye.Right], from: today, to: dayFromNow(6) }]);
      const twice = await call(base, "review.repeat", { query: { id: item.id } }, manager);
      expect([twice.status, twice.error?.message]).toEqual([409, expect.stringMatching(/already/)]);

      // The repeat's result: this week's session is done, so it fills the repeat's slot (index -1) once.
      const after = h.received.length;
      expect((await upload(h, sid, "r-2", homeResult(p.id, new Date().toISOString(), Eye.Right, 9))).refused).toBeUndefined();
      await h.next((m) => m.type === "standalone" && h.received.indexOf(m) >= after && !("repeats" in (m.home as object)));
      expect((await upload(h, sid, "r-3", homeResult(p.id, new Date().toISOString(), Eye.Right, 10))).refused).toBe(
        "not-due: already-done",
      );
      expect(
        await server.db.query("select session_index from home_results where programme_id = $1 order by session_index", [made.id]),
      ).toEqual([{ session_index: -1 }, { session_index: 3 }]);
      expect((await ok(base, "review.note", { query: { id: item.id }, body: { note: "Repeated" } }, manager)).repeat).toMatchObject({
        state: "done",
      });
      // The repeat's result is an item of its own; adherence is as before it (this week done, three missed).
      expect((await itemsOf(p.id)).filter((i) => i.kind === "result")).toHaveLength(2);
      expect(await ok(base, "home.adherence", { query: { id: made.id } }, manager)).toMatchObject({ due: 4, done: 1, missed: 3 });
      expect((await ok(base, "home.adherenceList", { query: {} }, manager)).find((r) => r.programmeId === made.id)).toMatchObject({
        due: 4,
        done: 1,
        repeats: { pending: 0, done: 1, missed: 0 },
      });

      // An ended programme takes no repeat.
      await ok(base, "home.programmeEnd", { query: { id: made.id }, body: { reason: "ended" } }, manager);
      const other = (await itemsOf(p.id)).find((i) => i.kind === "result" && i.id !== item.id)!;
      const ended = await call(base, "review.repeat", { query: { id: other.id } }, manager);
      expect([ended.status, ended.error?.message]).toEqual([409, expect.stringMatching(/has ended/)]);
      await server.ctx.audit.flush();
      const trail = await server.db.query<{ outcome: string }>(
        "select outcome from audit_events where action = 'review.repeat' and record_id = any($1) order by id",
        [[item.id, missed.id, other.id]],
      );
      expect(trail.map((e) => e.outcome)).toEqual(["validation_error", "success", "conflict", "conflict"]);
      await h.close();
    });
  });
