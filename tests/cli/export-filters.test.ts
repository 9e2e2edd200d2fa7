import { describe, expect, it } from "vitest";
import { Eye, Pattern } from "../../core/model/enums.ts";
import { matchesFilters, patternOption, eyeOption } from "../../cli/export/filters.ts";
import { examinationRecord, exportRecord } from "../../cli/export/record.ts";
import { jsonOf } from "../../cli/export/json.ts";
import { runExport } from "../../cli/export/run-export.ts";
import { READ_AHEAD, RESULTS_PAGE_SIZE, resultsOf } from "../../cli/export/source.ts";
import { ApiError } from "../../core/model/contract/errors.ts";
import type { Api } from "../../core/ports.ts";
import type { ExportRecord } from "../../cli/export/record.ts";
import { examinationsOf, fakeApi, sampleExamination, sampleMeasurement, samplePatient, type FakeClinic } from "./fixtures.ts";

const p = samplePatient(2);
const rec = (o: Parameters<typeof sampleMeasurement>[2]) => exportRecord(p, sampleMeasurement(p, 0, o))!;

describe("export filters", () => {
  it("date range is inclusive on the UTC test day", () => {
    const r = rec({ takenAt: "2024-05-10T23:30:00.000Z" });
    expect(matchesFilters(r, { reliableOnly: false, from: "2024-05-10", to: "2024-05-10" })).toBe(true);
    expect(matchesFilters(r, { reliableOnly: false, from: "2024-05-11" })).toBe(false);
    expect(matchesFilters(r, { reliableOnly: false, to: "2024-05-09" })).toBe(false);
  });

  it("pattern and eye", () => {
    const r = rec({ pattern: Pattern.G, eye: Eye.Left });
    expect(matchesFilters(r, { reliableOnly: false, pattern: Pattern.G, eye: Eye.Left })).toBe(true);
    expect(matchesFilters(r, { reliableOnly: false, pattern: Pattern.P24_2 })).toBe(false);
    expect(matchesFilters(r, { reliableOnly: false, eye: Eye.Right })).toBe(false);
  });

  it("reliable only: within the catch-trial limits AND not marked unreliable", () => {
    expect(matchesFilters(rec({ falsePositives: 1 }), { reliableOnly: true })).toBe(true);
    // 3 of 10 false positives is above the 15 % limit.
    expect(matchesFilters(rec({ falsePositives: 3 }), { reliableOnly: true })).toBe(false);
    expect(matchesFilters(rec({ falsePositives: 0, reliable: false }), { reliableOnly: true })).toBe(false);
    expect(matchesFilters(rec({ falsePositives: 3 }), { reliableOnly: false })).toBe(true);
  });

  it("option parsers accept the pattern labels and eye names, and reject others", () => {
    expect(patternOption("24-2")).toBe(Pattern.P24_2);
    expect(patternOption("esterman")).toBe(Pattern.Esterman);
    expect(() => patternOption("24-3")).toThrow(/Expected one of 24-2, G, 10-2, 30-2, S28, Esterman, C40/);
    expect(eyeOption("OS")).toBe(Eye.Left);
    expect(() => eyeOption("middle")).toThrow(/right, left or binocular/);
  });
});

describe("the export source streams", () => {
  it("(per patient, a backend without perimetry.page) reads at most READ_AHEAD patients ahead of the one being written", async () => {
    const api = fakeApi({ patients: 12, resultsPerPatient: 3, pageCall: false });
    const fetchedWhileWriting: number[] = [];
    await runExport(
      api,
      { kind: "organisation" },
      { reliableOnly: false },
      {
        write: async () => void fetchedWhileWriting.push(api.calls.filter((c) => c === "perimetry.all").length),
        end: async () => undefined,
      },
    );
    // While patient k's results are written (k = 1..12), at most k + READ_AHEAD patients have been asked for.
    fetchedWhileWriting.forEach((fetched, i) => expect(fetched).toBeLessThanOrEqual(Math.floor(i / 3) + 1 + READ_AHEAD));
    expect(fetchedWhileWriting.at(-1)).toBe(12);
  });

  it("(per patient) with no read-ahead, asks for the next patient only after the previous one's results were written", async () => {
    const api = fakeApi({ patients: 5, resultsPerPatient: 3, pageCall: false });
    const seen: number[] = [];
    for await (const _ of resultsOf(api, { kind: "organisation" }, {}, 0)) seen.push(api.calls.filter((c) => c === "perimetry.all").length);
    expect(seen).toEqual([1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5]);
  });

  it("a failed fetch ahead surfaces in order, after the results before it", async () => {
    const api = fakeApi({ patients: 3, resultsPerPatient: 2 });
    const ids: string[] = [];
    await expect(
      (async () => {
        for await (const r of resultsOf(api, { kind: "patients", ids: ["p00000", "nobody", "p00002"] })) ids.push(r.patient.id);
      })(),
    ).rejects.toThrow(/no patient nobody/);
    expect(ids).toEqual(["p00000", "p00000"]);
  });

  it("(a backend without perimetry.page) pages the organisation through patient/search and skips measurements without a result", async () => {
    const api = fakeApi({
      patients: 230,
      resultsPerPatient: 2,
      pageCall: false,
      options: (i, k) => ({ withResult: !(i === 3 && k === 1) }),
    });
    let total = 0,
      count = 0;
    for await (const _ of resultsOf(api, { kind: "organisation" }, { patientsTotal: (n) => (total = n) })) count++;
    expect(total).toBe(230);
    expect(count).toBe(459);
    expect(api.calls.filter((c) => c === "patient.search")).toHaveLength(3);
    expect(api.calls[0]).toBe("perimetry.page"); // asked first, answered 404, then the fallback
  });

  it("a list reads each patient once, in the order given", async () => {
    const api = fakeApi({ patients: 10, resultsPerPatient: 1 });
    const ids: string[] = [];
    for await (const r of resultsOf(api, { kind: "patients", ids: ["p00004", "p00001", "p00004"] })) ids.push(r.patient.id);
    expect(ids).toEqual(["p00004", "p00001"]);
  });
});

describe("the organisation through perimetry.page", () => {
  const all = async (api: Api, pageSize?: number, filters = {}) => {
    const out: ExportRecord[] = [];
    for await (const r of resultsOf(api, { kind: "organisation" }, {}, READ_AHEAD, { filters, ...(pageSize ? { pageSize } : {}) }))
      out.push(r);
    return out;
  };
  const key = (r: ExportRecord) => `${r.patient.id}/${r.test.id}`;
  // Takes out of order within a patient (k = 2 is the oldest), one eye left, one 10-2, one without a result.
  const clinic: FakeClinic = {
    patients: 9,
    resultsPerPatient: 4,
    options: (i, k) => ({
      takenAt: new Date(Date.UTC(2021, 0, 10 + ((k + 2) % 4) * 30 + i)).toISOString(),
      eye: k === 1 ? Eye.Left : Eye.Right,
      pattern: i === 4 && k === 0 ? Pattern.P10_2 : Pattern.P24_2,
      withResult: !(i === 2 && k === 3),
    }),
  };

  it("gives the same records, in the same order, as the per-patient path (patients by id, each one's results oldest first)", async () => {
    const paged = fakeApi(clinic);
    const perPatient = fakeApi({ ...clinic, pageCall: false });
    const viaPages = await all(paged, 5);
    expect(viaPages.map(key)).toEqual((await all(perPatient)).map(key));
    expect(viaPages).toHaveLength(9 * 4 - 1);
    expect(paged.calls.filter((c) => c !== "perimetry.page")).toEqual([]);
    expect(paged.calls).toHaveLength(Math.ceil(35 / 5));
    // A patient whose results run across a page boundary keeps them together, oldest first.
    for (let i = 1; i < viaPages.length; i++) {
      const [a, b] = [viaPages[i - 1]!, viaPages[i]!];
      if (a.patient.id === b.patient.id) expect(Date.parse(a.result.takenAt)).toBeLessThanOrEqual(Date.parse(b.result.takenAt));
      else expect(a.patient.id < b.patient.id).toBe(true);
    }
  });

  it("asks for the next page while this one is written, never further ahead", async () => {
    expect(RESULTS_PAGE_SIZE).toBeGreaterThanOrEqual(100); // a 10,000-result export takes tens of calls, not thousands
    const api = fakeApi({ patients: 40, resultsPerPatient: 3 });
    let written = 0;
    for await (const _ of resultsOf(api, { kind: "organisation" }, {}, READ_AHEAD, { pageSize: 10 })) {
      // While result n (0-based) is written, at most these were asked for: the page holding it, the next one (which
      // may hold the rest of its patient's results) and the one after, being fetched meanwhile.
      expect(api.calls.length).toBeLessThanOrEqual(Math.floor(written / 10) + 3);
      written++;
    }
    expect(written).toBe(120);
    expect(api.calls).toHaveLength(12);
  });

  it("passes the date, pattern and eye filters to the server; the export keeps what filtering every record keeps", async () => {
    const filters = { from: "2021-02-15", to: "2021-04-30", pattern: Pattern.P24_2, eye: Eye.Right };
    const everything = await all(fakeApi({ ...clinic, pageCall: false }));
    const expected = everything.filter((r) => matchesFilters(r, { reliableOnly: false, ...filters })).map(key);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(everything.length);
    const api = fakeApi(clinic);
    const written: string[] = [];
    const summary = await runExport(
      api,
      { kind: "organisation" },
      { reliableOnly: false, ...filters },
      {
        write: async (r) => void written.push(key(r)),
        end: async () => undefined,
      },
    );
    expect(written).toEqual(expected);
    // The server left the others out: none was read only to be dropped.
    expect(summary).toMatchObject({ results: expected.length, filteredOut: 0 });
  });

  it("leaves out and names results that are not valid (a location without a value), as the web analyses only valid ones", async () => {
    const broken = (i: number, k: number) => i === 1 && k === 2;
    const api = fakeApi({ patients: 3, resultsPerPatient: 3, options: (i, k) => ({ lastLocationMissing: broken(i, k) }) });
    const written: string[] = [];
    const summary = await runExport(
      api,
      { kind: "organisation" },
      { reliableOnly: true },
      {
        write: async (r) => void written.push(`${r.test.id}:${r.analysis().pattern}`),
        end: async () => undefined,
      },
    );
    expect(summary.invalid).toEqual([`${samplePatient(1).id}-m2`]);
    expect(summary.results + summary.filteredOut).toBe(8);
    expect(written.filter((w) => w.startsWith(`${samplePatient(1).id}-m2:`))).toEqual([]);
    expect(written.length).toBe(summary.results);
    const record = exportRecord(samplePatient(1), sampleMeasurement(samplePatient(1), 2, { lastLocationMissing: true }))!;
    expect(record.valid).toBe(false);
    expect(() => record.analysis()).toThrow(/cannot be analysed: it lacks a value for some location of its pattern/);
  });

  it("counts the patients up front from the first page; patients without results are not read", async () => {
    let total = -1;
    const done: string[] = [];
    const api = fakeApi({ ...clinic, options: (i, k) => ({ ...clinic.options!(i, k), withResult: i !== 5 }) });
    for await (const _ of resultsOf(
      api,
      { kind: "organisation" },
      { patientsTotal: (n) => (total = n), patientDone: (p) => void done.push(p.id) },
      READ_AHEAD,
      { pageSize: 7 },
    ))
      void 0;
    expect(total).toBe(8);
    expect(done).toEqual(Array.from({ length: 9 }, (_, i) => samplePatient(i).id).filter((id) => id !== samplePatient(5).id));
  });

  it("a failure of perimetry.page other than 'no such call' is not hidden by the fallback", async () => {
    const inner = fakeApi(clinic);
    let pages = 0;
    const failing = (status: number, responseType: string, onPage: number): Api =>
      ({
        call: async (endpoint: string, input: unknown) => {
          if (endpoint === "perimetry.page" && pages++ === onPage)
            throw new ApiError({ status, responseType, message: `page failed with ${status}` });
          return inner.call(endpoint as never, input as never);
        },
      }) as Api;
    await expect(all(failing(401, "token_expired", 0))).rejects.toThrow(/page failed with 401/);
    pages = 0;
    await expect(all(failing(500, "internal_error", 0))).rejects.toThrow(/page failed with 500/);
    // A later page failing surfaces after the results before it, even a 404.
    pages = 0;
    const got: string[] = [];
    await expect(
      (async () => {
        for await (const r of resultsOf(failing(404, "not_found", 2), { kind: "organisation" }, {}, READ_AHEAD, { pageSize: 5 }))
          got.push(key(r));
      })(),
    ).rejects.toThrow(/page failed with 404/);
    expect(got.length).toBeGreaterThanOrEqual(5);
    expect(got.length).toBeLessThanOrEqual(10);
    expect(inner.calls.filter((c) => c === "perimetry.all")).toEqual([]);
  });
});

describe("perimetry examinations (appointment variant)", () => {
  const all = async (api: Api, pageSize?: number, filters = {}) => {
    const out: ExportRecord[] = [];
    for await (const r of resultsOf(api, { kind: "organisation" }, {}, READ_AHEAD, { filters, ...(pageSize ? { pageSize } : {}) }))
      out.push(r);
    return out;
  };
  const key = (r: ExportRecord) => `${r.patient.id}/${r.stored.kind}/${r.test.id}`;
  // Two measurements and three examinations a patient, their days interleaved; the last examination of patient 3 is
  // not taken yet, and patient 6's are 10-2 left-eye tests.
  const clinic: FakeClinic = {
    patients: 7,
    resultsPerPatient: 2,
    examinationsPerPatient: 3,
    examinationOptions: (i, k) => ({
      takenAt: new Date(Date.UTC(2022, 0, 1 + k * 20 + i)).toISOString(),
      withResult: !(i === 3 && k === 2),
      ...(i === 6 ? { pattern: Pattern.P10_2, eye: Eye.Left } : {}),
    }),
    options: (i, k) => ({ takenAt: new Date(Date.UTC(2022, 0, 11 + k * 20 + i)).toISOString() }),
  };

  it("a taken perimetry examination maps to a record as the web reads it: its id, no name of its own, not marked unreliable", () => {
    const p = samplePatient(1);
    const e = sampleExamination(p, 3);
    const r = examinationRecord(p, e)!;
    expect(r.test).toMatchObject({
      id: e.id,
      source: "examination",
      eye: e.eye,
      displayName: null,
      reliable: true,
      appointmentId: e.appointmentId,
      deviceSn: e.deviceSn,
    });
    expect(r.result).toBe(e.result);
    expect(r.stored).toEqual({ kind: "examination", examination: e });
    // Not taken, or not perimetry: nothing to export.
    expect(examinationRecord(p, sampleExamination(p, 4, { withResult: false }))).toBeNull();
    expect(examinationRecord(p, { ...e, type: "amsler" })).toBeNull();
    // JSON says which kind it is, with the examination (its appointment) in place of a measurement.
    const json = jsonOf(r) as Record<string, unknown>;
    expect(json.kind).toBe("examination");
    expect(json).not.toHaveProperty("measurement");
    expect(json.examination).toMatchObject({ id: e.id, appointmentId: e.appointmentId, type: "perimetry" });
    expect(json.examination).not.toHaveProperty("result");
    expect((jsonOf(exportRecord(p, sampleMeasurement(p, 0))!) as { kind: string }).kind).toBe("measurement");
  });

  it("per patient: examination.all's taken perimetry examinations beside the measurements, oldest first", async () => {
    const api = fakeApi({ ...clinic, pageCall: false });
    const got = await all(api);
    expect(got).toHaveLength(7 * (2 + 3) - 1);
    for (let i = 0; i < 7; i++) {
      const mine = got.filter((r) => r.patient.id === samplePatient(i).id);
      const taken = examinationsOf(clinic, i)
        .filter((e) => e.taken)
        .map((e) => e.id);
      expect(
        mine
          .filter((r) => r.stored.kind === "examination")
          .map((r) => r.test.id)
          .sort(),
      ).toEqual(taken.sort());
      expect(mine.map((r) => r.result.takenAt)).toEqual(mine.map((r) => r.result.takenAt).sort());
    }
    // Interleaved by day, not measurements then examinations.
    expect(got.filter((r) => r.patient.id === "p00000").map((r) => r.stored.kind)).toEqual([
      "examination",
      "measurement",
      "examination",
      "measurement",
      "examination",
    ]);
    expect(api.calls.filter((c) => c === "examination.all")).toHaveLength(7);
  });

  it("the organisation through perimetry.page gives exactly the per-patient records, across page boundaries and with filters", async () => {
    const perPatient = await all(fakeApi({ ...clinic, pageCall: false }));
    for (const size of [1, 3, 4, 7, 200]) {
      const paged = fakeApi(clinic);
      const viaPages = await all(paged, size);
      expect(viaPages.map(key), `page size ${size}`).toEqual(perPatient.map(key));
      expect(viaPages.map((r) => JSON.stringify(jsonOf(r)))).toEqual(perPatient.map((r) => JSON.stringify(jsonOf(r))));
      expect(paged.calls.filter((c) => c !== "perimetry.page")).toEqual([]);
    }
    const filters = { pattern: Pattern.P10_2, eye: Eye.Left };
    const tenTwo = await all(fakeApi(clinic), 2, filters);
    expect(tenTwo.map(key)).toEqual(perPatient.filter((r) => r.result.pattern === Pattern.P10_2 && r.result.eye === Eye.Left).map(key));
    expect(tenTwo.map(key)).toEqual(examinationsOf(clinic, 6).map((e) => `p00006/examination/${e.id}`));
  });

  it("a backend without examination.all (404) is asked once, and its measurements are exported", async () => {
    const api = fakeApi({ ...clinic, pageCall: false, examinationCall: false });
    const got = await all(api);
    expect(got.map((r) => r.stored.kind)).toEqual(Array(7 * 2).fill("measurement"));
    expect(api.calls.filter((c) => c === "examination.all")).toHaveLength(1);
  });
});
