import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { crossingShare, fitCapacityModel, headsetsOn, predictCores, type CpuPoint } from "../../bench/cluster/model.ts";

// bench:cluster's capacity model (issue 32 §3): cores = a·headsets + b·events crossing + c·processes, fitted by least
// squares, and the headsets it predicts for N processes on M cores.

const layout = [
  { processes: 1, headsets: 0, crossing: 0 },
  { processes: 1, headsets: 1000, crossing: 0 },
  { processes: 1, headsets: 3000, crossing: 0 },
  { processes: 3, headsets: 0, crossing: 2, allCross: true },
  { processes: 3, headsets: 1000, crossing: 1400, allCross: true },
  { processes: 3, headsets: 3000, crossing: 4300, allCross: true },
  // Headsets with their organisation's browsers: next to nothing crosses.
  { processes: 3, headsets: 3000, crossing: 10 },
];

describe("fitCapacityModel", () => {
  it("recovers the costs exactly from points that follow the model", () => {
    const points: CpuPoint[] = layout.map((p) => ({ ...p, cores: 0.0002 * p.headsets + 0.00005 * p.crossing + 0.02 * p.processes }));
    const m = fitCapacityModel(points)!;
    expect(m.perHeadset).toBeCloseTo(0.0002, 9);
    expect(m.perEvent).toBeCloseTo(0.00005, 9);
    expect(m.perProcess).toBeCloseTo(0.02, 9);
    // Events per headset from the points where every event crosses, with headsets: (1400 + 4300) / 4000.
    expect(m.eventsPerHeadset).toBeCloseTo(1.425, 9);
    for (const p of points) expect(predictCores(m, p)).toBeCloseTo(p.cores, 9);
  });

  it("is the least-squares fit: residuals are orthogonal to each cost's column", () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: -0.05, max: 0.05, noNaN: true }), { minLength: 7, maxLength: 7 }), (noise) => {
        const points = layout.map((p, i) => ({ ...p, cores: 0.0003 * p.headsets + 0.0001 * p.crossing + 0.03 * p.processes + noise[i]! }));
        const m = fitCapacityModel(points)!;
        const residuals = points.map((p) => p.cores - predictCores(m, p));
        for (const column of ["headsets", "crossing", "processes"] as const)
          expect(points.reduce((s, p, i) => s + p[column] * residuals[i]!, 0)).toBeCloseTo(0, 6);
      }),
    );
  });

  it("gives no model when the points cannot tell the costs apart", () => {
    expect(fitCapacityModel(layout.slice(0, 2).map((p) => ({ ...p, cores: 1 })))).toBeNull();
    // One process count, nothing crossing: the event cost is unknowable.
    expect(fitCapacityModel(layout.slice(0, 3).map((p) => ({ ...p, cores: p.headsets / 1000 })))).toBeNull();
    // Three processes with their headsets placed by organisation: a few control messages a second cross, no events.
    const placed = [...layout.slice(0, 3), { processes: 3, headsets: 0, crossing: 0.2 }, { processes: 3, headsets: 3000, crossing: 0.4 }];
    expect(fitCapacityModel(placed.map((p) => ({ ...p, cores: p.headsets / 1000 + p.processes / 100 })))).toBeNull();
  });
});

describe("headsetsOn", () => {
  const m = { perHeadset: 0.0002, perEvent: 0.0001, perProcess: 0.05, eventsPerHeadset: 1.5 };

  it("fills the cores left after each process's own cost, a headset costing its share of crossing events", () => {
    // One process: nothing crosses. (1 − 0.05) / 0.0002 = 4750.
    expect(headsetsOn(m, 1, 1, "regardless")).toBeCloseTo(4750, 6);
    // Three on three cores, placed regardless of organisation: 2/3 of a headset's 1.5 events cross:
    // (3 − 0.15) / (0.0002 + 0.0001·1.5·2/3) = 9500.
    expect(headsetsOn(m, 3, 3, "regardless")).toBeCloseTo(9500, 6);
    expect(crossingShare(3, "regardless")).toBeCloseTo(2 / 3, 12);
    // Placed with their organisation: none cross, (3 − 0.15) / 0.0002 = 14250.
    expect(crossingShare(3, "organisation")).toBe(0);
    expect(headsetsOn(m, 3, 3, "organisation")).toBeCloseTo(14250, 6);
  });

  it("gives a process one core at most (its work runs on one JavaScript thread)", () => {
    expect(headsetsOn(m, 1, 2, "regardless")).toBeCloseTo(headsetsOn(m, 1, 1, "regardless"), 9);
    // Three processes on two cores: (2 − 0.15) / 0.0003.
    expect(headsetsOn(m, 3, 2, "regardless")).toBeCloseTo(1.85 / 0.0003, 6);
  });

  it("is 0 when the processes' own cost takes every core", () => {
    expect(headsetsOn(m, 40, 2, "organisation")).toBe(0);
  });
});
