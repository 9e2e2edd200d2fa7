import { expect, it } from "vitest";
import type { Endpoint, PerimetryPage, PerimetryPageFilter, RequestOf, ResponseOf } from "../../core/model/contract/index.ts";
import { Eye, Pattern, TestType } from "../../core/model/enums.ts";
import type { Examination } from "../../core/model/examination.ts";
import type { Measurement } from "../../core/model/measurement.ts";
import type { MeasurementResult } from "../../core/model/measurement-result.ts";
import type { Patient } from "../../core/model/patient.ts";
import { insertAppointment } from "../../simulator/server/store/appointments.ts";
import { insertExamination } from "../../simulator/server/store/examinations.ts";
import { insertMeasurement } from "../../simulator/server/store/measurements.ts";
import { insertPatient } from "../../simulator/server/store/patients.ts";
import { newId } from "../../simulator/server/store/ids.ts";
import { sampleExamination, sampleMeasurement } from "../cli/fixtures.ts";
import type { Answer, TestServer } from "./harness.ts";

// perimetry/page (our design, for exports of a whole organisation) against the running server, on PGlite and
// PostgreSQL through contract-suite.ts: every result of the organisation exactly once, measurements and taken perimetry
// examinations (appointment variant) in one (patient id, takenAt, id) order, the same set patient/all + perimetry/all +
// examination/all give; filters; the bin; a cursor that keeps its place when rows are added before it (keyset, not
// OFFSET); bad quantities and cursors answer 400 naming the field.

export interface PageSuiteEnv {
  server(): TestServer;
  c<E extends Endpoint>(name: E, input: RequestOf<E>): Promise<Answer<ResponseOf<E>>>;
  o<E extends Endpoint>(name: E, input: RequestOf<E>): Promise<ResponseOf<E>>;
  /** Raw HTTP with the suite's token (bodies the typed client would refuse to send). */
  raw(method: string, path: string, body: unknown): Promise<{ status: number; json: { data?: unknown; responseType?: string } }>;
  newPatient(name: string): Promise<Patient>;
}

const anyFilter: PerimetryPageFilter = { from: null, to: null, pattern: null, eye: null };

/** The UTC test day, as the export's filters read it. */
const utcDay = (takenAt: string) => new Date(takenAt).toISOString().slice(0, 10);

/** A result of either kind, as the page call and the per-patient calls give it. */
type Result =
  | {
      readonly kind: "measurement";
      readonly id: string;
      readonly patientId: string;
      readonly result: MeasurementResult;
      readonly value: Measurement;
    }
  | {
      readonly kind: "examination";
      readonly id: string;
      readonly patientId: string;
      readonly result: MeasurementResult;
      readonly value: Examination;
    };

const ofMeasurement = (m: Measurement): Result => ({ kind: "measurement", id: m.id, patientId: m.patientId, result: m.result!, value: m });
const ofExamination = (e: Examination): Result => ({
  kind: "examination",
  id: e.id,
  patientId: e.patientId,
  result: e.result as MeasurementResult,
  value: e,
});

/** The page call's order: patient id, takenAt, id, as text in byte order. */
const byKey = (a: Result, b: Result) => {
  const [x, y] = [
    [a.patientId, a.result.takenAt, a.id],
    [b.patientId, b.result.takenAt, b.id],
  ];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
  return 0;
};

/** A page's results of both kinds in the page's order (the wire splits them by kind). */
const resultsOfPage = (page: PerimetryPage): Result[] =>
  [...page.entries.map(ofMeasurement), ...(page.examinations ?? []).map(ofExamination)].sort(byKey);

export const perimetryPageCases = (env: PageSuiteEnv) => {
  /** Every page from the first, with the pages themselves. */
  const walk = async (filter: PerimetryPageFilter, quantity: number) => {
    const pages: PerimetryPage[] = [];
    let after: string | null = null;
    do {
      const page: PerimetryPage = await env.o("perimetry.page", { body: { filter, after, quantity } });
      pages.push(page);
      after = page.next;
      if (pages.length > 10_000) throw new Error("perimetry/page never ends");
    } while (after !== null);
    return { pages, entries: pages.flatMap(resultsOfPage) };
  };

  /** What the per-patient calls say the organisation's results are, in the page call's order. */
  const reference = async (keep: (m: Result) => boolean = () => true) => {
    const patients = await env.o("patient.all", {});
    const out: Result[] = [];
    for (const p of patients) {
      for (const m of await env.o("perimetry.all", { query: { patientId: p.id } })) if (m.result) out.push(ofMeasurement(m));
      const query = { patientId: p.id, examinationType: TestType.Perimetry, taken: true };
      for (const e of await env.o("examination.all", { query })) if (e.result) out.push(ofExamination(e));
    }
    return out.filter(keep).sort(byKey);
  };

  type Taken = { takenAt: string; pattern?: Pattern; eye?: Eye; examination?: boolean };

  /**
   * A patient (through the API) with results inserted straight into the database (the upload and appointment paths
   * have their own tests): measurements, or with `examination` perimetry examinations outside any appointment.
   */
  const patientWithResults = async (name: string, results: Taken[]) => {
    const p = await env.newPatient(name);
    const db = env.server().db;
    const org = (await db.query<{ organisation_id: string }>("select organisation_id from patients where id = $1", [p.id]))[0]!
      .organisation_id;
    const options = (r: Taken) => ({ takenAt: r.takenAt, pattern: r.pattern ?? Pattern.P24_2, eye: r.eye ?? Eye.Right });
    const ms = results.flatMap((r, k) => (r.examination ? [] : [{ ...sampleMeasurement(p, k, options(r)), id: newId() }]));
    for (const m of ms) await insertMeasurement(db, org, { ...m, result: m.result && { ...m.result, measurementId: m.id } }, null);
    const es = results.flatMap((r, k) => (r.examination ? [examination(p, k, options(r))] : []));
    for (const e of es) await insertExamination(db, org, e, 0);
    return { patient: p, measurements: ms, examinations: es, org };
  };

  /** A taken perimetry examination of `p` (sampleExamination with a fresh id), outside any appointment unless given one. */
  const examination = (
    p: Patient,
    k: number,
    o: Parameters<typeof sampleExamination>[2],
    appointmentId: string | null = null,
  ): Examination => {
    const id = newId();
    const e = sampleExamination(p, k, o);
    return { ...e, id, appointmentId, result: e.result && { ...(e.result as MeasurementResult), measurementId: id } };
  };

  it("perimetry/page: every result of the organisation once, by patient id then oldest first, as patient/all + perimetry/all give", async () => {
    await patientWithResults("Page Walker", [
      { takenAt: "2024-03-02T10:00:00.000Z" },
      { takenAt: "2023-01-05T08:00:00.000Z", eye: Eye.Left },
      { takenAt: "2024-03-02T09:00:00.000Z", pattern: Pattern.P10_2 },
      { takenAt: "2024-03-02T09:30:00.000Z", examination: true },
      { takenAt: "2022-11-11T11:00:00.000Z", eye: Eye.Left, examination: true },
    ]);
    await patientWithResults("Page Walker Exams", [
      { takenAt: "2020-01-01T10:00:00.000Z", examination: true },
      { takenAt: "2020-01-01T10:05:00.000Z", examination: true, eye: Eye.Left },
    ]);
    const expected = await reference();
    expect(expected.length).toBeGreaterThan(10);
    expect(expected.filter((r) => r.kind === "examination").length).toBeGreaterThanOrEqual(4);
    const { pages, entries } = await walk(anyFilter, 7);
    expect(entries.map((m) => m.id)).toEqual(expected.map((m) => m.id));
    expect(entries).toEqual(expected);
    expect(pages.length).toBe(Math.ceil(expected.length / 7));
    expect(pages.slice(0, -1).every((p) => p.entries.length + (p.examinations?.length ?? 0) === 7 && p.next !== null)).toBe(true);
    // The first page counts the whole selection (for a progress bar); later pages do not.
    expect(pages[0]!.total).toEqual({ results: expected.length, patients: new Set(expected.map((m) => m.patientId)).size });
    expect(pages.slice(1).every((p) => p.total === null)).toBe(true);
    // Each page names the patient of each of its entries, once each, in the entries' order.
    const patients = await env.o("patient.all", {});
    for (const page of pages) {
      expect(page.patients.map((p) => p.id)).toEqual([...new Set(resultsOfPage(page).map((m) => m.patientId))]);
      for (const p of page.patients) expect(p).toEqual(patients.find((x) => x.id === p.id));
    }
    // One big page gives the same.
    const one = await env.o("perimetry.page", { body: { filter: anyFilter, after: null, quantity: 1000 } });
    expect([resultsOfPage(one).map((m) => m.id), one.next]).toEqual([expected.map((m) => m.id), null]);
  });

  it("perimetry/page filters on the result's pattern, eye and UTC test day (inclusive)", async () => {
    await patientWithResults("Page Filter", [
      { takenAt: "2022-06-30T23:30:00.000Z", eye: Eye.Left },
      { takenAt: "2022-07-01T00:30:00+02:00", eye: Eye.Left }, // 2022-06-30 in UTC
      { takenAt: "2022-07-01T00:30:00.000Z", pattern: Pattern.P30_2 },
      { takenAt: "2022-06-30T22:00:00.000Z", eye: Eye.Left, examination: true },
      { takenAt: "2022-07-01T01:30:00+02:00", pattern: Pattern.P30_2, examination: true }, // 2022-06-30 in UTC
      { takenAt: "2022-07-01T08:00:00.000Z", pattern: Pattern.P30_2, examination: true },
    ]);
    const cases: Array<[PerimetryPageFilter, (m: Result) => boolean]> = [
      [{ ...anyFilter, pattern: Pattern.P24_2 }, (m) => m.result!.pattern === Pattern.P24_2],
      [{ ...anyFilter, eye: Eye.Left }, (m) => m.result!.eye === Eye.Left],
      [{ ...anyFilter, from: "2022-06-30", to: "2022-06-30" }, (m) => utcDay(m.result!.takenAt) === "2022-06-30"],
      [{ ...anyFilter, from: "2022-07-01" }, (m) => utcDay(m.result!.takenAt) >= "2022-07-01"],
      [
        { from: null, to: "2022-07-01", pattern: Pattern.P30_2, eye: Eye.Right },
        (m) => utcDay(m.result!.takenAt) <= "2022-07-01" && m.result!.pattern === Pattern.P30_2 && m.result!.eye === Eye.Right,
      ],
    ];
    // One reading of the organisation through the per-patient calls (two calls a patient), filtered per case.
    const all = await reference();
    for (const [filter, keep] of cases) {
      const expected = all.filter(keep);
      expect(expected.length, JSON.stringify(filter)).toBeGreaterThan(0);
      expect(
        expected.some((r) => r.kind === "examination"),
        JSON.stringify(filter),
      ).toBe(true);
      const { pages, entries } = await walk(filter, 5);
      expect(
        entries.map((m) => m.id),
        JSON.stringify(filter),
      ).toEqual(expected.map((m) => m.id));
      expect(pages[0]!.total?.results).toBe(expected.length);
    }
    const day = await walk({ ...anyFilter, from: "2022-06-30", to: "2022-06-30" }, 50);
    expect(day.entries.map((r) => r.kind).sort()).toEqual(["examination", "examination", "measurement", "measurement"]);
  });

  it("perimetry/page leaves out trashed results, trashed patients, measurements without a result and other organisations", async () => {
    const { patient, measurements } = await patientWithResults("Page Bin", [
      { takenAt: "2021-01-01T10:00:00.000Z" },
      { takenAt: "2021-02-01T10:00:00.000Z" },
    ]);
    const ids = async () => (await walk(anyFilter, 1000)).entries.map((m) => m.id);
    expect(await ids()).toEqual(expect.arrayContaining(measurements.map((m) => m.id)));
    await env.o("perimetry.trash", { query: { id: measurements[0]!.id } });
    expect(await ids()).not.toContain(measurements[0]!.id);
    await env.o("patient.trash", { query: { id: patient.id } });
    expect(await ids()).not.toContain(measurements[1]!.id);
    await env.o("patient.restore", { query: { id: patient.id } });
    expect(await ids()).toContain(measurements[1]!.id);
    // A queued measurement (no result) is not a result.
    const queued = (
      await env.server().db.query<{ id: string }>("select id from measurements where result is null and trashed_at is null limit 1")
    )[0];
    if (queued) expect(await ids()).not.toContain(queued.id);
    // Another organisation's results never appear.
    const db = env.server().db;
    const other = newId();
    await db.query(
      "insert into organisations (id, name, multi_tests, market, country, created_at) values ($1, 'Page Other', false, 'FDA', 'US', $2)",
      [other, new Date().toISOString()],
    );
    const stranger = { ...patient, id: newId(), uniqueId: `PO-${newId().slice(0, 6)}` };
    await insertPatient(db, other, stranger.id, stranger, stranger.createdAt);
    const theirs = { ...sampleMeasurement(stranger, 0, { takenAt: "2021-03-01T10:00:00.000Z" }), id: newId() };
    await insertMeasurement(db, other, theirs, null);
    expect(await ids()).not.toContain(theirs.id);
  });

  it("perimetry/page: taken perimetry examinations only, outside the bin, of appointments and patients outside the bin, of this organisation", async () => {
    const { patient, examinations, org } = await patientWithResults("Page Exam Bin", [
      { takenAt: "2021-05-01T10:00:00.000Z", examination: true },
      { takenAt: "2021-05-02T10:00:00.000Z", examination: true },
    ]);
    const db = env.server().db;
    const ids = async () => (await walk(anyFilter, 1000)).entries.filter((r) => r.kind === "examination").map((r) => r.id);
    expect(await ids()).toEqual(expect.arrayContaining(examinations.map((e) => e.id)));
    // Not taken yet, or not perimetry: not a perimetry result.
    const untaken = { ...examination(patient, 7, { withResult: false }), taken: false };
    await insertExamination(db, org, untaken, 0);
    const amsler = {
      ...examination(patient, 8, {}),
      type: TestType.Amsler,
      config: null,
      result: { answer: "healthy", takenAt: "2021-05-03T10:00:00.000Z", deviceSn: "VR-0001", appointmentId: null },
    } as unknown as Examination;
    await insertExamination(db, org, amsler, 0);
    // One inside an appointment, which then goes to the bin (its examinations with it, as examination/all has it).
    const appointmentId = newId();
    const now = new Date().toISOString();
    await insertAppointment(
      db,
      org,
      {
        id: appointmentId,
        patientId: patient.id,
        deviceSn: null,
        audioGuide: false,
        tutorial: false,
        trackGaze: true,
        standaloneId: null,
        createdAt: now,
        updatedAt: now,
        trashedAt: null,
      },
      0,
    );
    const inAppointment = examination(patient, 9, { takenAt: "2021-05-04T10:00:00.000Z" }, appointmentId);
    await insertExamination(db, org, inAppointment, 0);
    const listed = await ids();
    expect(listed).toContain(inAppointment.id);
    expect(listed).not.toContain(untaken.id);
    expect(listed).not.toContain(amsler.id);
    const page = await env.o("perimetry.page", { body: { filter: anyFilter, after: null, quantity: 1000 } });
    expect(page.examinations?.find((e) => e.id === inAppointment.id)).toEqual(
      (await env.o("examination.all", { query: { patientId: patient.id, examinationType: TestType.Perimetry, taken: true } })).find(
        (e) => e.id === inAppointment.id,
      ),
    );
    await env.o("appointment.trash", { query: { id: appointmentId } });
    expect(await ids()).not.toContain(inAppointment.id);
    // A trashed examination, and every examination of a trashed patient.
    await env.o("examination.trash", { query: { id: examinations[0]!.id } });
    expect(await ids()).not.toContain(examinations[0]!.id);
    expect(await ids()).toContain(examinations[1]!.id);
    await env.o("patient.trash", { query: { id: patient.id } });
    expect(await ids()).not.toContain(examinations[1]!.id);
    await env.o("patient.restore", { query: { id: patient.id } });
    expect(await ids()).toContain(examinations[1]!.id);
    // The totals count examinations too: what the walk gives.
    const walked = await walk(anyFilter, 9);
    expect(walked.pages[0]!.total).toEqual({
      results: walked.entries.length,
      patients: new Set(walked.entries.map((r) => r.patientId)).size,
    });
    expect(walked.entries).toEqual(await reference());
    // Another organisation's examinations never appear.
    const other = newId();
    await db.query(
      "insert into organisations (id, name, multi_tests, market, country, created_at) values ($1, 'Page Other Exams', true, 'FDA', 'US', $2)",
      [other, now],
    );
    const stranger = { ...patient, id: newId(), uniqueId: `PX-${newId().slice(0, 6)}` };
    await insertPatient(db, other, stranger.id, stranger, stranger.createdAt);
    const theirs = examination(stranger, 0, { takenAt: "2021-05-05T10:00:00.000Z" });
    await insertExamination(db, other, theirs, 0);
    expect(await ids()).not.toContain(theirs.id);
  });

  it("perimetry/page: a cursor keeps its place when results are added before it (keyset paging, not an offset)", async () => {
    const first = await env.o("perimetry.page", { body: { filter: anyFilter, after: null, quantity: 6 } });
    const expectedRest = (await reference()).slice(6).map((m) => m.id);
    // A result that sorts before the cursor: the lowest patient id of the page, earliest takenAt.
    const db = env.server().db;
    const p = first.patients[0]!;
    const org = (await db.query<{ organisation_id: string }>("select organisation_id from patients where id = $1", [p.id]))[0]!
      .organisation_id;
    const early = { ...sampleMeasurement(p, 0, { takenAt: "1999-01-01T00:00:00.000Z" }), id: newId() };
    await insertMeasurement(db, org, early, null);
    let after = first.next;
    const rest: string[] = [];
    while (after !== null) {
      const page: PerimetryPage = await env.o("perimetry.page", { body: { filter: anyFilter, after, quantity: 6 } });
      rest.push(...resultsOfPage(page).map((m) => m.id));
      after = page.next;
    }
    expect(rest).toEqual(expectedRest);
    await env.o("perimetry.delete", { query: { id: early.id } });
  });

  it("perimetry/page: a quantity outside 1..1000 or a cursor the server did not give answers 400 naming the field", async () => {
    for (const quantity of [0, 1001, -3]) {
      const r = await env.c("perimetry.page", { body: { filter: anyFilter, after: null, quantity } });
      expect([r.status, r.error?.field]).toEqual([400, "body.quantity"]);
    }
    for (const after of ["not a cursor", "", "WzEsMiwzXQ", Buffer.from(JSON.stringify(["a\u0000", "b", "c"])).toString("base64url")]) {
      const r = await env.c("perimetry.page", { body: { filter: anyFilter, after, quantity: 5 } });
      expect([r.status, r.error?.field], after).toEqual([400, "body.after"]);
    }
    const badPattern = await env.raw("POST", "perimetry/page", { filter: { ...anyFilter, pattern: 42 }, after: null, quantity: 5 });
    expect([badPattern.status, (badPattern.json.data as { field?: string }).field]).toEqual([400, "body.filter.pattern"]);
    const badDay = await env.raw("POST", "perimetry/page", { filter: { ...anyFilter, from: "2024-13" }, after: null, quantity: 5 });
    expect([badDay.status, (badDay.json.data as { field?: string }).field]).toEqual([400, "body.filter.from"]);
    // Shaped like a day but not one: refused naming the field, not a database error.
    for (const [field, day] of [
      ["from", "2024-02-30"],
      ["to", "2023-13-01"],
      ["from", "0000-01-01"],
      ["to", "2024-04-31"],
    ] as const) {
      const r = await env.c("perimetry.page", { body: { filter: { ...anyFilter, [field]: day }, after: null, quantity: 5 } });
      expect([r.status, r.error?.field], day).toEqual([400, `body.filter.${field}`]);
    }
    expect(
      (
        await env.c("perimetry.page", {
          body: { filter: { ...anyFilter, from: "2024-02-29", to: "2024-12-31" }, after: null, quantity: 5 },
        })
      ).status,
    ).toBe(200);
  });
};
