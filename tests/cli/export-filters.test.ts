import { describe, expect, it } from "vitest";
import { Eye, Pattern } from "../../core/model/enums.ts";
import { matchesFilters, patternOption, eyeOption } from "../../cli/export/filters.ts";
import { exportRecord } from "../../cli/export/record.ts";
import { runExport } from "../../cli/export/run-export.ts";
import { READ_AHEAD, resultsOf } from "../../cli/export/source.ts";
import { fakeApi, sampleMeasurement, samplePatient } from "./fixtures.ts";

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
  it("reads at most READ_AHEAD patients ahead of the one being written", async () => {
    const api = fakeApi({ patients: 12, resultsPerPatient: 3 });
    const fetchedWhileWriting: number[] = [];
    await runExport(api, { kind: "organisation" }, { reliableOnly: false }, {
      write: async () => void fetchedWhileWriting.push(api.calls.filter((c) => c === "perimetry.all").length),
      end: async () => undefined,
    });
    // While patient k's results are written (k = 1..12), at most k + READ_AHEAD patients have been asked for.
    fetchedWhileWriting.forEach((fetched, i) => expect(fetched).toBeLessThanOrEqual(Math.floor(i / 3) + 1 + READ_AHEAD));
    expect(fetchedWhileWriting.at(-1)).toBe(12);
  });

  it("with no read-ahead, asks for the next patient only after the previous one's results were written", async () => {
    const api = fakeApi({ patients: 5, resultsPerPatient: 3 });
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

  it("pages the organisation through patient/search and skips measurements without a result", async () => {
    const api = fakeApi({ patients: 230, resultsPerPatient: 2, options: (i, k) => ({ withResult: !(i === 3 && k === 1) }) });
    let total = 0, count = 0;
    for await (const _ of resultsOf(api, { kind: "organisation" }, { patientsTotal: (n) => (total = n) })) count++;
    expect(total).toBe(230);
    expect(count).toBe(459);
    expect(api.calls.filter((c) => c === "patient.search")).toHaveLength(3);
  });

  it("a list reads each patient once, in the order given", async () => {
    const api = fakeApi({ patients: 10, resultsPerPatient: 1 });
    const ids: string[] = [];
    for await (const r of resultsOf(api, { kind: "patients", ids: ["p00004", "p00001", "p00004"] })) ids.push(r.patient.id);
    expect(ids).toEqual(["p00004", "p00001"]);
  });
});
