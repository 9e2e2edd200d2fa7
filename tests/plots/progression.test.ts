import { describe, expect, it } from "vitest";
import { Eye, Pattern, Strategy } from "../../core/model/enums.ts";
import { tickCount } from "../../core/plots/axes.ts";
import {
  chartSourceChanges,
  progressionPointsShown,
  progressionScene,
  progressionWindows,
  slopeLabel,
  type ProgressionPoint,
} from "../../core/plots/progression.ts";
import { group, ofKind, textsOf } from "./helpers.ts";
import type { SeriesResult } from "../../core/analytics/progression/eye-progression.ts";
import { DEFAULT_NORMATIVE_VERSION } from "../../core/analytics/normative/registry.ts";
import { resultDevice } from "../../core/analytics/series-sources.ts";
import { resolveText } from "../../core/plots/message.ts";
import { printProgression, seriesLine } from "../../core/plots/print-header.ts";
import { patientRows } from "../analytics/reference-data.ts";

const now = "2026-11-20T12:00:00Z";
const point = (id: string, takenAt: string, meanDefect: number, extra: Partial<ProgressionPoint> = {}): ProgressionPoint => ({
  measurementId: id,
  takenAt,
  meanDefect,
  eye: Eye.Right,
  pattern: Pattern.P24_2,
  valid: true,
  ...extra,
});

// One result a year, MD worsening by exactly 0.5 dB per year (365.25-day years).
const yearly = [0, 1, 2, 3, 4].map((k) =>
  point(`m${k}`, new Date(Date.parse("2022-01-01T00:00:00Z") + k * 365.25 * 86_400_000).toISOString(), 2 + 0.5 * k),
);

// Accounts seed §9: "Progression filters: all, 12 months, 1 month, 1 week, 1 day (analysis window values: all, 366, 31, 7, 1 days)".
describe("progression filters", () => {
  it("all, 12 months, 1 month, 1 week, 1 day = windows all, 366, 31, 7, 1 days", () => {
    expect(progressionWindows).toEqual({ all: "all", "12m": 366, "1m": 31, "1w": 7, "1d": 1 });
  });

  it("each filter keeps the results inside its window before now", () => {
    const ages = [0.5, 3, 20, 200, 500];
    const points = ages.map((d, i) => point(`p${i}`, new Date(Date.parse(now) - d * 86_400_000).toISOString(), 1));
    const count = (f: keyof typeof progressionWindows) => progressionPointsShown(points, f, now).length;
    expect([count("1d"), count("1w"), count("1m"), count("12m"), count("all")]).toEqual([1, 2, 3, 4, 5]);
  });

  // Analytics.md: "only valid, reliable results of pattern G or 24-2".
  it("only valid, reliable G or 24-2 results are drawn", () => {
    const points = [
      point("a", "2026-01-01", 1),
      point("b", "2026-02-01", 1, { pattern: Pattern.G }),
      point("c", "2026-03-01", 1, { pattern: Pattern.P30_2 }),
      point("d", "2026-04-01", 1, { unreliable: true }),
      point("e", "2026-05-01", 1, { valid: false }),
    ];
    expect(progressionPointsShown(points, "all", now).map((p) => p.measurementId)).toEqual(["a", "b"]);
    const scene = progressionScene({ points, filter: "all", now, width: 600, height: 250 });
    expect(ofKind(group(scene, "series-right"), "circle")).toHaveLength(2);
  });
});

// Accounts seed §9: "Progression is a linear slope of mean defect per year rounded to 1 decimal, computed from the
// baseline onwards if one exists."
describe("slope per year", () => {
  it("the legend shows the slope per year rounded to 1 decimal", () => {
    const scene = progressionScene({ points: yearly, filter: "all", now, width: 600, height: 250 });
    expect(textsOf(group(scene, "legend-right"))).toEqual(["Right eye (OD)", "0.5 dB/year"]);
    expect(slopeLabel(-1.25 + 0.04).values).toEqual({ slope: "-1.2" });
    expect(slopeLabel(0).values).toEqual({ slope: "0.0" });
  });

  it("is computed from the baseline onwards, which is ringed", () => {
    const points = [point("x0", "2020-01-01", 10), point("x1", "2020-06-01", 0), ...yearly];
    const without = progressionScene({ points, filter: "all", now, width: 600, height: 250 });
    expect(textsOf(group(without, "legend-right"))[1]).not.toBe("0.5 dB/year");
    const withBaseline = progressionScene({ points, filter: "all", now, baselines: { right: "m0" }, width: 600, height: 250 });
    expect(textsOf(group(withBaseline, "legend-right"))[1]).toBe("0.5 dB/year");
    const rings = ofKind(group(withBaseline, "series-right"), "circle").filter((c) => c.fill === undefined);
    expect(rings).toHaveLength(1);
  });

  it("draws the regression line only from 3 results over 6 months, and says why there is none otherwise (issue 20)", () => {
    const scene = progressionScene({ points: yearly, filter: "all", now, width: 600, height: 250 });
    expect(ofKind(group(scene, "series-right"), "line")).toHaveLength(1);
    const two = progressionScene({ points: yearly.slice(0, 2), filter: "all", now, width: 600, height: 250 });
    expect(ofKind(group(two, "series-right"), "line")).toHaveLength(0);
    expect(textsOf(group(two, "legend-right"))[1]).toBe("No slope: it needs at least 3 results");
    const sameDay = [
      point("s1", "2026-11-20T08:00:00Z", -2),
      point("s2", "2026-11-20T08:30:00Z", -8),
      point("s3", "2026-11-20T11:00:00Z", -3),
    ];
    const day = progressionScene({ points: sameDay, filter: "1d", now, width: 600, height: 250 });
    expect(ofKind(group(day, "series-right"), "line")).toHaveLength(0);
    expect(textsOf(group(day, "legend-right"))[1]).toBe("No slope: the results span less than 6 months");
    // A date axis always, also within one day: the date, once; never a time of day.
    const axis = textsOf(day).filter((t) => /^\d\d:\d\d$|^\d{4}-\d{2}-\d{2}$/.test(t));
    expect(axis.length).toBeGreaterThan(0);
    expect(axis.every((t) => /^\d{4}-\d{2}-\d{2}$/.test(t))).toBe(true);
    expect(new Set(axis).size).toBe(axis.length);
  });

  it("left and right eyes get their own series, slope and marker shape", () => {
    const left = yearly.map((p) => ({ ...p, measurementId: `l${p.measurementId}`, eye: Eye.Left, meanDefect: p.meanDefect! * 2 }));
    const scene = progressionScene({ points: [...yearly, ...left], filter: "all", now, width: 600, height: 250 });
    expect(textsOf(group(scene, "legend-left"))).toEqual(["Left eye (OS)", "1.0 dB/year"]);
    expect(ofKind(group(scene, "series-left"), "rect")).toHaveLength(5);
  });

  it("says so when no result is in the window", () => {
    const scene = progressionScene({ points: yearly, filter: "1w", now, width: 600, height: 250 });
    expect(textsOf(scene)).toContain("No valid, reliable 24-2 or G results in this period");
  });

  it("time ticks follow about one per 300 px", () => {
    for (const width of [400, 700, 1300]) {
      const scene = progressionScene({ points: yearly, filter: "all", now, width, height: 250 });
      const dates = textsOf(scene).filter((t) => /^\d{4}-\d{2}-\d{2}$/.test(t));
      expect(dates).toHaveLength(tickCount(width - 46 - 16, "x"));
    }
  });
});

// Issue 29 §2: "pool one pattern across devices and strategies only with a visible marker where the device or strategy
// changes".
describe("changes of device or strategy", () => {
  const hfa = { manufacturer: "Carl Zeiss Meditec", model: "HFA3 860", strategyName: "SITA Standard" };
  const pooled = [
    ...yearly.slice(0, 2).map((p) => ({ ...p, strategy: Strategy.Undefined, source: hfa })),
    ...yearly.slice(2).map((p) => ({ ...p, strategy: Strategy.DS })),
  ];

  it("a dashed line across the plot area at the first result after a change, labelled with what it changed to", () => {
    const scene = progressionScene({ points: pooled, filter: "all", now, width: 600, height: 250 });
    const marks = group(scene, "source-changes");
    const lines = ofKind(marks, "line");
    expect(lines).toHaveLength(1);
    expect(lines[0]!.dash).toEqual([4, 3]);
    expect(lines[0]!.x1).toBe(lines[0]!.x2);
    const m2 = ofKind(group(scene, "series-right"), "circle").filter((c) => c.fill !== undefined)[2]!;
    expect(lines[0]!.x1).toBeCloseTo(m2.cx, 6);
    expect(textsOf(marks)).toEqual(["Isopter headset · Dynamic"]);
    // The other way round: the short label names the imported perimeter's model and the file's strategy.
    const back = [
      ...pooled.slice(2).map((p, k) => ({ ...p, takenAt: yearly[k]!.takenAt })),
      ...pooled.slice(0, 2).map((p, k) => ({ ...p, takenAt: yearly[3 + k]!.takenAt })),
    ];
    expect(textsOf(group(progressionScene({ points: back, filter: "all", now, width: 600, height: 250 }), "source-changes"))).toEqual([
      "HFA3 860 · SITA Standard",
    ]);
  });

  it("both eyes changing on one day share a line; the words list each eye's change", () => {
    const left = pooled.map((p) => ({ ...p, measurementId: `l${p.measurementId}`, eye: Eye.Left }));
    const scene = progressionScene({ points: [...pooled, ...left], filter: "all", now, width: 600, height: 250 });
    expect(ofKind(group(scene, "source-changes"), "line")).toHaveLength(1);
    const changes = chartSourceChanges([...pooled, ...left], "all", now);
    expect(changes.map((c) => [c.eye, c.measurementId, c.device, c.strategy])).toEqual([
      [Eye.Right, "m2", true, true],
      [Eye.Left, "lm2", true, true],
    ]);
    expect(changes[0]!.from.device.name).toBe("Carl Zeiss Meditec HFA3 860");
  });

  it("only among the results shown: a change outside the window is not marked; one device, no marker", () => {
    const scene = progressionScene({ points: pooled, filter: "12m", now, width: 600, height: 250 });
    expect(() => group(scene, "source-changes")).toThrow();
    expect(() => group(progressionScene({ points: yearly, filter: "all", now, width: 600, height: 250 }), "source-changes")).toThrow();
  });

  it("labels of changes close together keep to two rows inside the plot area", () => {
    const many = yearly.map((p, k) => ({ ...p, strategy: [Strategy.DS, Strategy.Normal, Strategy.SORS][k % 3]! }));
    const scene = progressionScene({ points: many, filter: "all", now, width: 400, height: 250 });
    const labels = ofKind(group(scene, "source-changes"), "text");
    expect(labels).toHaveLength(4);
    expect(new Set(labels.map((t) => t.y)).size).toBe(2);
    for (const t of labels) {
      expect(t.maxWidth).toBeGreaterThan(0);
      if (t.anchor === "start") expect(t.x + t.maxWidth!).toBeLessThanOrEqual(400 - 16);
      else expect(t.x - t.maxWidth!).toBeGreaterThanOrEqual(46 - 1);
    }
  });
});

describe("the printout names the series it analysed (issue 29)", () => {
  const hfa = { manufacturer: "Carl Zeiss Meditec", model: "HFA3 860", strategyName: "SITA Standard" };
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
      ...(k < 3 ? { strategy: Strategy.Undefined, source: hfa } : { strategy: Strategy.DS }),
    }));
  const last = od.at(-1)!;

  it("pooled: the days of each change on the clinic's clock and what the series last changed to", () => {
    const p = printProgression(od, last, null, "Europe/Berlin");
    expect(p.changeDays).toEqual([od[3]!.takenAt.slice(0, 10)]);
    expect(resolveText(seriesLine(p)!)).toBe(
      `all devices and strategies · device or strategy changed on ${od[3]!.takenAt.slice(0, 10)}, last to Isopter headset · Dynamic`,
    );
  });

  it("limited to one device: says so; one device and one strategy without a limit prints no line", () => {
    const own = od.slice(3);
    const limited = printProgression(own, last, null, "UTC", { device: resultDevice(own[0]!), strategy: null });
    expect(resolveText(seriesLine(limited)!)).toBe("only Isopter headset");
    expect(seriesLine(printProgression(own, last, null, "UTC"))).toBeNull();
  });
});
