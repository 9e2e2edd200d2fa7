import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { Pattern } from "../../../core/model/enums.ts";
import { getPattern, statisticalIndices } from "../../../core/analytics/patterns.ts";
import { CLUSTER_PATTERNS, discEntryAngle, garwayHeathAngle, octopusClusters } from "../../../core/analytics/octopus-clusters.ts";
import { clusterTrend, type ClusterTrendDetail } from "../../../core/analytics/progression/criteria/cluster-trend.ts";

const index = (pattern: Pattern, x: number, y: number) => {
  const i = getPattern(pattern).points.findIndex((p) => p.x === x && p.y === y);
  if (i < 0) throw new Error(`no location (${x}, ${y})`);
  return i;
};
const clusterOf = (pattern: Pattern, i: number) => octopusClusters(pattern)!.find((c) => c.locations.includes(i))!.id;

/** Ten visits half a year apart. */
const years = Array.from({ length: 10 }, (_, k) => k / 2);
/** A small fixed wobble so regressions have residuals (deterministic, about +-0.6 dB). */
const wobble = (visit: number, loc: number) => 0.6 * Math.sin(visit * 2.3 + loc * 1.7);

/** TD per visit: `base(loc)` plus the wobble plus `rate(loc)` dB per year; blind spots null. */
function series(pattern: Pattern, rate: (loc: number) => number, base: (loc: number) => number = () => -1) {
  const g = getPattern(pattern);
  return years.map((t, v) =>
    g.points.map((_, loc) => (g.blindSpotIndices.includes(loc) ? null : base(loc) + wobble(v, loc) + rate(loc) * t)),
  );
}
function detail(pattern: Pattern, td: ReadonlyArray<ReadonlyArray<number | null>>, ys = years): ClusterTrendDetail & { verdict: string } {
  const out = clusterTrend(pattern, ys, td);
  if (!out.applicable) throw new Error(out.reason);
  return { ...out.detail, verdict: out.verdict };
}

describe("the ten Octopus clusters (our build from Jansonius 2009 and Garway-Heath 2000 sectors)", () => {
  it("partition the non-blind-spot locations of G, 24-2 and 30-2 into ten clusters, five per hemifield", () => {
    for (const pattern of CLUSTER_PATTERNS) {
      const clusters = octopusClusters(pattern)!;
      const g = getPattern(pattern);
      expect(clusters.map((c) => c.id)).toEqual([
        "superior-central",
        "superior-paracentral",
        "superior-nasal",
        "superior-peripheral",
        "superior-temporal",
        "inferior-central",
        "inferior-paracentral",
        "inferior-nasal",
        "inferior-peripheral",
        "inferior-temporal",
      ]);
      const all = clusters.flatMap((c) => c.locations).sort((a, b) => a - b);
      // G's fixation point (0, 0) is on the meridian and belongs to no cluster.
      expect(all).toEqual(statisticalIndices(g).filter((i) => g.points[i]!.y !== 0));
      for (const c of clusters) {
        expect(c.locations.length).toBeGreaterThan(1);
        expect(c.locations.every((i) => Math.sign(g.points[i]!.y) === (c.hemifield === "superior" ? 1 : -1))).toBe(true);
      }
    }
  });

  it("has these sizes (pinned: a change to the map must be deliberate)", () => {
    const sizes = (p: Pattern) => octopusClusters(p)!.map((c) => c.locations.length);
    expect(sizes(Pattern.G)).toEqual([7, 4, 6, 8, 4, 5, 4, 10, 6, 4]); // 58 + fixation = 59
    expect(sizes(Pattern.P24_2)).toEqual([4, 5, 8, 6, 3, 3, 4, 10, 7, 2]); // 52
    expect(sizes(Pattern.P30_2)).toEqual([4, 5, 8, 12, 8, 3, 4, 12, 13, 5]); // 74
  });

  it("are not defined off G, 24-2 and 30-2", () => {
    for (const p of [Pattern.P10_2, Pattern.S28, Pattern.C40, Pattern.Esterman]) expect(octopusClusters(p)).toBeNull();
  });

  it("follow the arcuate bundles: further from the meridian in the nasal field, further from the disc's temporal pole", () => {
    // Garway-Heath 2000: the superior field maps to the inferior disc (180-360 degrees), the inferior to the superior.
    const gh = (x: number, y: number) => garwayHeathAngle(discEntryAngle({ x, y }));
    const superior = [3, 9, 15, 21].map((y) => gh(-9, y));
    const inferior = [-3, -9, -15, -21].map((y) => gh(-9, y));
    expect(superior.every((a, k) => a > 180 && (k === 0 || a < superior[k - 1]!))).toBe(true);
    expect(inferior.every((a, k) => a < 180 && (k === 0 || a > inferior[k - 1]!))).toBe(true);
    // Locations next to fixation enter Garway-Heath's temporal sector (311-40 degrees).
    for (const [x, y] of [
      [-3, 3],
      [3, 3],
      [-3, -3],
      [3, -3],
    ] as const) {
      const a = gh(x, y);
      expect(a > 310 || a < 41).toBe(true);
    }
  });

  it("put the nasal step with the nasal cluster and the field beyond the blind spot with the temporal one (24-2)", () => {
    expect(clusterOf(Pattern.P24_2, index(Pattern.P24_2, -27, 3))).toBe("superior-nasal");
    expect(clusterOf(Pattern.P24_2, index(Pattern.P24_2, -27, -3))).toBe("inferior-nasal");
    expect(clusterOf(Pattern.P24_2, index(Pattern.P24_2, 21, 3))).toBe("superior-temporal");
    expect(clusterOf(Pattern.P24_2, index(Pattern.P24_2, 21, -3))).toBe("inferior-temporal");
    expect(clusterOf(Pattern.P24_2, index(Pattern.P24_2, 3, 3))).toBe("superior-central");
  });
});

describe("cluster trend (EyeSuite; Naghizadeh & Holló 2014)", () => {
  it("'Progression was defined with significant worsening in any of the 10 Octopus clusters': one cluster losing 1.5 dB/year", () => {
    const nasal = new Set(octopusClusters(Pattern.P24_2)!.find((c) => c.id === "superior-nasal")!.locations);
    const d = detail(
      Pattern.P24_2,
      series(Pattern.P24_2, (loc) => (nasal.has(loc) ? -1.5 : 0)),
    );
    expect(d.verdict).toBe("worsening");
    expect(d.worseningClusters).toBe(1);
    const hit = d.clusters.find((c) => c.cluster === "superior-nasal")!;
    expect(hit.slope).toBeCloseTo(-1.5, 0);
    expect(hit.worseningLevel).toBe("p<1%");
    expect(d.clusters.filter((c) => c !== hit).every((c) => c.change === "stable" && c.worseningLevel === null)).toBe(true);
  });

  it("a series of identical fields is stable, whatever the field (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.float({ min: -30, max: 5, noNaN: true }), { minLength: 59, maxLength: 59 }), (field) => {
        const td = years.map(() => field);
        const d = detail(Pattern.G, td);
        expect(d.verdict).toBe("stable");
        expect(d.clusters.every((c) => c.slope === 0)).toBe(true);
      }),
      { numRuns: 50 },
    );
  });

  it("a deep but unchanging defect is stable; recovery is improving", () => {
    expect(
      detail(
        Pattern.G,
        series(
          Pattern.G,
          () => 0,
          (loc) => (loc % 3 === 0 ? -25 : -2),
        ),
      ).verdict,
    ).toBe("stable");
    expect(
      detail(
        Pattern.G,
        series(Pattern.G, () => 1),
      ).verdict,
    ).toBe("improving");
  });

  it("is monotone in damage: loss growing linearly in time never raises a slope or a p of worsening (property)", () => {
    const order = { worsening: 0, stable: 1, improving: 2 } as const;
    const locs = getPattern(Pattern.P24_2).points.length;
    fc.assert(
      fc.property(
        fc.array(fc.float({ min: -1, max: 1, noNaN: true }), { minLength: locs, maxLength: locs }),
        fc.array(fc.float({ min: 0, max: 2, noNaN: true }), { minLength: locs, maxLength: locs }),
        (rates, extra) => {
          const before = detail(
            Pattern.P24_2,
            series(Pattern.P24_2, (loc) => rates[loc]!),
          );
          const after = detail(
            Pattern.P24_2,
            series(Pattern.P24_2, (loc) => rates[loc]! - extra[loc]!),
          );
          expect(order[after.verdict as keyof typeof order]).toBeLessThanOrEqual(order[before.verdict as keyof typeof order]);
          before.clusters.forEach((b, k) => {
            const a = after.clusters[k]!;
            expect(a.slope).toBeLessThanOrEqual(b.slope + 1e-9);
            expect(a.pWorsening).toBeLessThanOrEqual(b.pWorsening + 1e-9);
          });
        },
      ),
      { numRuns: 40 },
    );
  });

  it("is symmetric in sign: mirrored deviations turn each worsening cluster into an improving one (property)", () => {
    const flip = { worsening: "improving", stable: "stable", improving: "worsening" } as const;
    const locs = getPattern(Pattern.P30_2).points.length;
    fc.assert(
      fc.property(fc.array(fc.float({ min: -2, max: 2, noNaN: true }), { minLength: locs, maxLength: locs }), (rates) => {
        const td = series(
          Pattern.P30_2,
          (loc) => rates[loc]!,
          () => 0,
        );
        const a = detail(Pattern.P30_2, td);
        const b = detail(
          Pattern.P30_2,
          td.map((v) => v.map((x) => (x === null ? null : -x))),
        );
        expect([b.worseningClusters, b.improvingClusters]).toEqual([a.improvingClusters, a.worseningClusters]);
        if (a.worseningClusters === 0 || a.improvingClusters === 0) expect(b.verdict).toBe(flip[a.verdict as keyof typeof flip]);
        a.clusters.forEach((c, k) => {
          expect(b.clusters[k]!.change).toBe(flip[c.change]);
          expect(b.clusters[k]!.slope).toBeCloseTo(-c.slope, 9);
          expect(b.clusters[k]!.pWorsening).toBeCloseTo(c.pImproving, 9);
        });
      }),
      { numRuns: 40 },
    );
  });

  it("keeps the hemifields apart: loss confined to the superior field worsens superior clusters only", () => {
    const g = getPattern(Pattern.G);
    const d = detail(
      Pattern.G,
      series(Pattern.G, (loc) => (g.points[loc]!.y > 0 ? -2 : 0)),
    );
    for (const c of d.clusters) expect(c.change).toBe(c.cluster.startsWith("superior") ? "worsening" : "stable");
  });

  it("is not applicable, with the reason, on too little or unfit data", () => {
    const td = series(Pattern.P24_2, () => 0);
    const reason = (p: Pattern, ys: readonly number[], rows: ReadonlyArray<ReadonlyArray<number | null>>) => {
      const out = clusterTrend(p, ys, rows);
      return out.applicable ? out.verdict : out.reason;
    };
    expect(
      reason(
        Pattern.P10_2,
        years,
        series(Pattern.P10_2, () => -1),
      ),
    ).toBe("pattern");
    expect(
      reason(
        Pattern.S28,
        years,
        series(Pattern.S28, () => -1),
      ),
    ).toBe("pattern");
    expect(reason(Pattern.P24_2, years.slice(0, 2), td.slice(0, 2))).toBe("too-few-visits");
    expect(reason(Pattern.P24_2, [0, 0.2, 0.4], td.slice(0, 3))).toBe("too-short-follow-up");
    // Three results over half a year (182.6 days) are enough, as for the MD slope.
    expect(["worsening", "stable", "improving"]).toContain(reason(Pattern.P24_2, [0, 0.25, 0.5], td.slice(0, 3)));
    const gap = td.map((v) => [...v]);
    gap[4]![index(Pattern.P24_2, -27, 3)] = null;
    expect(reason(Pattern.P24_2, years, gap)).toBe("missing-locations");
    // The blind spots are in no cluster: null there is expected.
    expect(reason(Pattern.P24_2, years, td)).toBe("stable");
  });
});
