import { describe, expect, it } from "vitest";
import { eyeReading } from "../../../core/analytics/progression/criteria/reading.ts";
import {
  METHOD_IDS,
  type MethodId,
  type MethodOutcome,
  notApplicable,
  type Verdict,
} from "../../../core/analytics/progression/criteria/verdict.ts";

// One reading per eye (issue 30): "worsening by 4 of 6 methods; the loss is diffuse, which events on PD do not see".
// The rules are ours (reading.ts): a majority of the applicable methods; diffuse when TD/MD methods worsen and no PD
// measure does; localised when a PD measure worsens.

const outcomes = (verdicts: Partial<Record<MethodId, Verdict>>): MethodOutcome[] =>
  METHOD_IDS.map((id) => {
    const v = verdicts[id];
    return v ? { method: id, applicable: true, verdict: v, detail: null } : notApplicable(id, "pattern");
  });

describe("eyeReading", () => {
  it("the issue's example: worsening by 4 of 6 methods; diffuse, unseen by the events on PD", () => {
    const r = eyeReading(
      outcomes({
        events: "stable",
        poplr: "worsening",
        "md-slope": "worsening",
        "vfi-trend": "stable",
        cigts: "worsening",
        "schell-2014": "worsening",
      }),
      { slopePerYear: 0.02, p: 0.7 },
    );
    expect(r).toMatchObject({
      verdict: "worsening",
      basis: "majority",
      counts: { worsening: 4, stable: 2, improving: 0, applicable: 6, methods: 9 },
      worsening: ["poplr", "md-slope", "cigts", "schell-2014"],
      pattern: "diffuse",
      unseenBy: ["events"],
      evidence: { tdWorsening: ["poplr", "md-slope", "cigts", "schell-2014"], pdWorsening: [], psdTrend: { rising: false } },
    });
  });

  it("localised when the PD events worsen, or the PSD rises significantly", () => {
    const w = { poplr: "worsening", "md-slope": "worsening", cigts: "worsening" } as const;
    expect(eyeReading(outcomes({ ...w, events: "worsening" }), null)).toMatchObject({ pattern: "localised", unseenBy: [] });
    expect(eyeReading(outcomes({ ...w, events: "stable" }), { slopePerYear: 0.3, p: 0.01 })).toMatchObject({ pattern: "localised" });
    expect(eyeReading(outcomes({ ...w, events: "stable" }), { slopePerYear: 0.3, p: 0.2 })).toMatchObject({ pattern: "diffuse" });
  });

  it("no majority, too few methods, or a stable majority: no verdict or no pattern", () => {
    expect(eyeReading(outcomes({ poplr: "worsening", "md-slope": "worsening", cigts: "stable", events: "stable" }), null)).toMatchObject({
      verdict: null,
      basis: "no-majority",
      pattern: "diffuse", // half the methods do see a loss, and no PD measure does
    });
    expect(eyeReading(outcomes({ poplr: "worsening", "md-slope": "worsening" }), null)).toMatchObject({
      verdict: null,
      basis: "too-few-methods",
    });
    expect(eyeReading(outcomes({ poplr: "worsening", "md-slope": "stable", cigts: "stable", events: "stable" }), null)).toMatchObject({
      verdict: "stable",
      pattern: null,
      unseenBy: [],
    });
    expect(eyeReading(outcomes({ poplr: "improving", "md-slope": "improving", cigts: "stable" }), null)).toMatchObject({
      verdict: "improving",
      improving: ["poplr", "md-slope"],
    });
  });
});
