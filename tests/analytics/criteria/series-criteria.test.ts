import { describe, expect, it } from "vitest";
import { CURRENT_NORMATIVE_VERSION } from "../../../core/analytics/normative/registry.ts";
import { eyeProgression, type SeriesResult } from "../../../core/analytics/progression/eye-progression.ts";
import { METHOD_IDS, type SeriesCriteria, seriesCriteria } from "../../../core/analytics/progression/criteria/index.ts";
import { Eye, Pattern } from "../../../core/model/enums.ts";
import { ALL_LOCATIONS, PATTERN, type SeriesSpec, simulatedSeries, UPPER_ARC } from "./simulated-series.ts";

// Every criterion on one eye's series (issue 30), one outcome per method in METHOD_IDS order; bad input gets "not
// applicable" with the reason from each method, never a verdict from too little data.

const reasons = (c: SeriesCriteria) => Object.fromEntries(c.methods.map((m) => [m.method, m.applicable ? m.verdict : m.reason]));
const stable: SeriesSpec = { seed: 2, visits: 6, interval: 0.5, noise: 1, rate: 0, where: [] };

describe("seriesCriteria: not applicable, with the reason", () => {
  it("one outcome per method, in METHOD_IDS order; the visits are sorted by date inside", () => {
    const visits = simulatedSeries({ ...stable, rate: 1.5, where: UPPER_ARC });
    const c = seriesCriteria(PATTERN, visits);
    expect(c.methods.map((m) => m.method)).toEqual([...METHOD_IDS]);
    expect(seriesCriteria(PATTERN, [visits[3]!, visits[0]!, visits[5]!, visits[1]!, visits[4]!, visits[2]!])).toEqual(c);
  });

  it("every method: fewer than 3 visits, a visit of another pattern, a location not measured, no normative database", () => {
    const visits = simulatedSeries(stable);
    const all = (reason: string) => Object.fromEntries(METHOD_IDS.map((id) => [id, reason]));
    expect(reasons(seriesCriteria(PATTERN, visits.slice(0, 2)))).toEqual(all("too-few-visits"));
    const thirty = simulatedSeries({ ...stable, pattern: Pattern.P30_2, normativeVersion: CURRENT_NORMATIVE_VERSION })[3]!;
    expect(reasons(seriesCriteria(PATTERN, [...visits.slice(0, 3), thirty, ...visits.slice(4)]))).toEqual(all("mixed-patterns"));
    const missing = visits.map((v, k) => (k === 2 ? { ...v, thresholds: v.thresholds.map((t, i) => (i === 0 ? null : t)) } : v));
    expect(reasons(seriesCriteria(PATTERN, missing))).toEqual(all("missing-locations"));
    expect(reasons(seriesCriteria(PATTERN, visits, { normativeVersion: "isopter-sim-hill-1" }))).toEqual(all("no-normative-database"));
    // Blind spots are not measured, and that is fine.
    expect(seriesCriteria(PATTERN, visits).methods.every((m) => m.applicable)).toBe(true);
  });

  it("each method's own needs: its patterns, visits and follow-up", () => {
    const tenTwo = seriesCriteria(Pattern.P10_2, simulatedSeries({ ...stable, pattern: Pattern.P10_2 }));
    expect(reasons(tenTwo)).toMatchObject({
      events: expect.any(String),
      "vfi-trend": "pattern",
      cigts: "pattern",
      "plr-nouri-2012": "pattern",
      "plr-three-omitting": "pattern",
      "schell-2014": "pattern",
      "cluster-trend": "pattern",
    });
    expect(tenTwo.methods.filter((m) => m.applicable).map((m) => m.method)).toEqual(["events", "poplr", "md-slope"]);
    const g = seriesCriteria(Pattern.G, simulatedSeries({ ...stable, pattern: Pattern.G, normativeVersion: CURRENT_NORMATIVE_VERSION }), {
      normativeVersion: CURRENT_NORMATIVE_VERSION,
    });
    expect(g.methods.filter((m) => m.applicable).map((m) => m.method)).toEqual(["events", "poplr", "md-slope", "cluster-trend"]);

    // Four visits over 1.5 years: the baseline-pair methods needing 3 confirmations, PoPLR and GPA's VFI rule refuse.
    expect(reasons(seriesCriteria(PATTERN, simulatedSeries(stable).slice(0, 4)))).toMatchObject({
      events: "too-few-visits",
      poplr: "too-few-visits",
      "vfi-trend": "too-few-visits",
      cigts: "too-few-visits",
      "plr-three-omitting": "too-few-visits",
    });
    // Six visits within three months: no trend is read; the baseline-pair methods still are.
    const short = reasons(seriesCriteria(PATTERN, simulatedSeries({ ...stable, interval: 0.05 })));
    for (const id of ["poplr", "md-slope", "vfi-trend", "plr-nouri-2012", "plr-three-omitting", "cluster-trend"])
      expect([id, short[id]]).toEqual([id, "too-short-follow-up"]);
    for (const id of ["events", "cigts", "schell-2014"]) expect([id, short[id]]).toEqual([id, "stable"]);
  });
});

describe("the eye's progression carries the criteria of its analysed results", () => {
  const results = (eye: Eye): SeriesResult[] =>
    simulatedSeries({ seed: 5, visits: 8, interval: 0.5, noise: 1, rate: 2, where: UPPER_ARC, defect: 3 }).map((v, k) => ({
      id: `r${k}`,
      takenAt: `${v.date}T09:00:00.000Z`,
      eye,
      pattern: PATTERN,
      age: v.age,
      thresholds: v.thresholds,
      normativeVersion: null,
      valid: true,
      unreliable: false,
    }));

  it("from the kept results only (set-aside ones are left out), as seriesCriteria on them", () => {
    const rs = results(Eye.Right);
    const marked = rs.map((r, k) => (k === 6 ? { ...r, unreliable: true } : r));
    const p = eyeProgression(marked, { eye: Eye.Right, pattern: PATTERN, nperm: 300 });
    expect(p.setAside).toEqual([{ id: "r6", reason: "unreliable" }]);
    const kept = rs.filter((_, k) => k !== 6).map((r) => ({ date: r.takenAt, age: r.age, thresholds: r.thresholds }));
    expect(p.criteria).toEqual(seriesCriteria(PATTERN, kept, { nperm: 300 }));
    expect(p.criteria!.reading).toMatchObject({ verdict: "worsening", pattern: "localised" });
  });

  it("a left eye's series reads as the same series of a right eye (indices are shared; only coordinates mirror)", () => {
    const right = eyeProgression(results(Eye.Right), { eye: Eye.Right, pattern: PATTERN, nperm: 300 }).criteria;
    expect(eyeProgression(results(Eye.Left), { eye: Eye.Left, pattern: PATTERN, nperm: 300 }).criteria).toEqual(right);
  });

  it("too few kept results: every method not applicable; none kept: no criteria", () => {
    const two = eyeProgression(results(Eye.Right).slice(0, 2), { eye: Eye.Right, pattern: PATTERN });
    expect(two.criteria!.methods.every((m) => !m.applicable && m.reason === "too-few-visits")).toBe(true);
    expect(two.criteria!.reading).toMatchObject({ verdict: null, basis: "too-few-methods" });
    expect(eyeProgression(results(Eye.Right), { eye: Eye.Left, pattern: PATTERN }).criteria).toBeNull();
  });
});

describe("the reading of a diffuse loss (the issue's example: events on PD do not see it)", () => {
  it("a uniform 1.5 dB/year loss: worsening by most methods, the loss diffuse, the events (PD) stable", () => {
    const c = seriesCriteria(PATTERN, simulatedSeries({ seed: 1, visits: 8, interval: 0.5, noise: 1, rate: 1.5, where: ALL_LOCATIONS }), {
      nperm: 200,
    });
    expect(reasons(c).events).toBe("stable");
    expect(c.reading).toMatchObject({ verdict: "worsening", basis: "majority", pattern: "diffuse", unseenBy: ["events"] });
    expect(c.reading.counts.worsening * 2).toBeGreaterThan(c.reading.counts.applicable);
  });
});
