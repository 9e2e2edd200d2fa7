import { describe, expect, it } from "vitest";
import { eyeProgression, type SeriesResult } from "../../core/analytics/progression/eye-progression.ts";
import { analyseSeries } from "../../core/analytics/series-analysis.ts";
import { DEFAULT_NORMATIVE_VERSION } from "../../core/analytics/normative/registry.ts";
import { Eye, Pattern, Strategy } from "../../core/model/enums.ts";
import { patientRows } from "./reference-data.ts";

// Issue 20 point 5: the progression analysis of one eye, on the SUNY-IU glaucoma patient's real 24-2 series.
const od: SeriesResult[] = patientRows()
  .filter((r) => r.eye === "OD")
  .map((r, k) => ({
    id: `od${k}`,
    takenAt: `${r.date}T10:00:00.000Z`,
    eye: Eye.Right,
    pattern: Pattern.P24_2,
    age: r.age,
    thresholds: r.sensitivities,
    normativeVersion: DEFAULT_NORMATIVE_VERSION,
    valid: true,
    unreliable: false,
  }));

describe("eye progression (GPA-style events, PoPLR, VFI trend)", () => {
  it("agrees with the series analysis: events from the first two results, PoPLR on TD, VFI slope", () => {
    const a = eyeProgression(od, { eye: Eye.Right, pattern: Pattern.P24_2, nperm: 500 });
    const s = analyseSeries(
      Pattern.P24_2,
      od.map((r) => ({ date: r.takenAt, age: r.age, thresholds: r.thresholds })),
      { nperm: 500 },
    );
    expect(a.used).toHaveLength(od.length);
    expect(a.events!.baseline).toEqual(["od0", "od1"]);
    expect(a.events!.status).toBe(s.events!.current);
    expect(a.events!.once).toEqual(s.events!.flagged.at(-1));
    expect(a.poplr!.p).toBe(s.poplr!.td!.cslp);
    expect(a.poplr!.slopes[0]).toBe(s.plr.td![0]!.slope);
    expect(a.vfi!.ratePerYear).toBe(s.glr!.vfi.slope);
    expect(a.noTrend).toBeNull();
  });

  it("from the baseline on; a mixed series sets aside other patterns, eyes, unreliable and unanalysable results, saying why", () => {
    const mixed: SeriesResult[] = [
      ...od,
      { ...od[5]!, id: "g", pattern: Pattern.G, thresholds: new Array(59).fill(30) },
      { ...od[6]!, id: "left", eye: Eye.Left },
      { ...od[7]!, id: "bad", unreliable: true },
      { ...od[8]!, id: "screen", valid: false },
      { ...od[9]!, id: "old", normativeVersion: "isopter-sim-hill-1" },
    ];
    const a = eyeProgression(mixed, { eye: Eye.Right, pattern: Pattern.P24_2, baselineId: "od3", nperm: 200 });
    const reason = (id: string) => a.setAside.find((s) => s.id === id)?.reason;
    expect([reason("g"), reason("left"), reason("bad"), reason("screen"), reason("old"), reason("od0")]).toEqual([
      "other-eye-or-pattern",
      "other-eye-or-pattern",
      "unreliable",
      "not-threshold",
      "no-normative-database",
      "before-baseline",
    ]);
    expect(a.events!.baseline).toEqual(["od3", "od4"]);
    expect(a.used).not.toContain("od0");
  });

  it("devices and strategies pool (issue 29), each change named: the result, what it changed from and to", () => {
    const ds = od.map((r) => ({ ...r, strategy: Strategy.DS }));
    const hfa = { manufacturer: "Carl Zeiss Meditec", model: "HFA3 860", strategyName: "SITA Standard" };
    const mixed: SeriesResult[] = [
      ...ds.slice(0, 4).map((r) => ({ ...r, strategy: Strategy.Undefined, source: hfa })),
      ...ds.slice(4, 7),
      { ...ds[7]!, strategy: Strategy.SORS },
      ...ds.slice(8),
    ];
    const a = eyeProgression(mixed, { eye: Eye.Right, pattern: Pattern.P24_2, nperm: 100 });
    expect(a.used).toEqual(mixed.map((r) => r.id));
    expect(a.setAside).toEqual([]);
    expect(a.strategy).toBeNull();
    expect(a.changes.map((c) => [c.id, c.device, c.strategy])).toEqual([
      ["od4", true, true],
      ["od7", false, true],
      ["od8", false, true],
    ]);
    expect(a.changes[0]!.from).toEqual({
      device: { key: "imported:carl zeiss meditec hfa3 860", kind: "imported", name: "Carl Zeiss Meditec HFA3 860", shortName: "HFA3 860" },
      strategy: { key: "name:sitastandard", name: "SITA Standard", code: Strategy.Undefined },
    });
    expect(a.changes[0]!.to.device.kind).toBe("isopter");
    // One device and one strategy: no change, and the strategy is named.
    const one = eyeProgression(ds, { eye: Eye.Right, pattern: Pattern.P24_2, nperm: 100 });
    expect(one.changes).toEqual([]);
    expect(one.strategy).toBe(Strategy.DS);
    // From the baseline on: a change before it is not in the analysed series.
    const b = eyeProgression(mixed, { eye: Eye.Right, pattern: Pattern.P24_2, baselineId: "od4", nperm: 100 });
    expect(b.changes.map((c) => c.id)).toEqual(["od7", "od8"]);
  });

  it("events need 3 results; trends need 3 results over 6 months, otherwise it says why", () => {
    expect(eyeProgression(od.slice(0, 2), { eye: Eye.Right, pattern: Pattern.P24_2 })).toMatchObject({
      events: null,
      poplr: null,
      vfi: null,
      noTrend: "too-few-results",
    });
    const sameMonth = od.slice(0, 3).map((r, k) => ({ ...r, takenAt: `2020-03-0${k + 1}T10:00:00.000Z` }));
    const a = eyeProgression(sameMonth, { eye: Eye.Right, pattern: Pattern.P24_2 });
    expect(a.events).not.toBeNull();
    expect(a).toMatchObject({ poplr: null, vfi: null, noTrend: "too-short-span" });
  });

  it("a G series with the full-field normals is analysed; losses that grow are flagged as progression", () => {
    const base = new Array(59).fill(29);
    const g: SeriesResult[] = [0, 1, 2, 3, 4].map((k) => ({
      id: `g${k}`,
      takenAt: `${2020 + k}-01-10T10:00:00.000Z`,
      eye: Eye.Left,
      pattern: Pattern.G,
      age: 60 + k,
      thresholds: base.map((v, i) => (i < 8 && k >= 2 ? v - 6 * (k - 1) : v) + (((i * 7 + k * 13) % 5) - 2) * 0.5),
      normativeVersion: "isopter-fullfield-2026-11-25",
      valid: true,
      unreliable: false,
    }));
    const a = eyeProgression(g, { eye: Eye.Left, pattern: Pattern.G });
    expect(a.events!.status).toBe("likely progression");
    expect(a.events!.thrice.length).toBeGreaterThanOrEqual(3);
    expect(a.poplr!.p).toBeLessThan(0.05);
    expect(a.vfi!.ratePerYear).toBeLessThan(0);
  });
});
