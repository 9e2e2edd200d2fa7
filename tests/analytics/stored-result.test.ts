import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { getPattern, patternsWithGeometry } from "../../core/analytics/patterns.ts";
import { analyseResult } from "../../core/analytics/result-analysis.ts";
import { analyseStoredResult, analysisInput, resultValid, thresholdResult } from "../../core/analytics/stored-result.ts";
import { Eye, Pattern, Strategy } from "../../core/model/enums.ts";
import type { MeasurementResult } from "../../core/model/measurement-result.ts";
import { withStoredIndices } from "../../simulator/perimetry/result.ts";
import { sampleMeasurement, samplePatient } from "../cli/fixtures.ts";

// One reading of a stored result for the web's result page, the CLI's export and the simulator's stored indices
// (accounts seed §4: only valid results may be baseline and appear on the progression chart).
const patient = samplePatient(1);
const stored = (over: Partial<MeasurementResult> = {}): MeasurementResult => ({ ...sampleMeasurement(patient, 0).result!, ...over });

describe("a stored result on its way into the analysis", () => {
  it("is valid only with a finite value at every location of a pattern that has a location map", () => {
    fc.assert(
      fc.property(fc.constantFrom(...patternsWithGeometry), fc.integer({ min: -3, max: 3 }), fc.boolean(), (pattern, extra, broken) => {
        const n = getPattern(pattern).points.length;
        const thresholds = Array.from({ length: Math.max(0, n + extra) }, (_, i) => (broken && i === 0 ? Number.NaN : 25));
        expect(resultValid({ pattern, thresholds })).toBe(extra === 0 && !(broken && thresholds.length > 0));
      }),
    );
    expect(resultValid({ pattern: Pattern.Undefined, thresholds: [] })).toBe(false);
  });

  it("a screening is valid but measured no thresholds", () => {
    const r = stored({ strategy: Strategy.Supra });
    expect(resultValid(r)).toBe(true);
    expect(thresholdResult(r)).toBe(false);
    expect(thresholdResult(stored({ strategy: Strategy.DS }))).toBe(true);
  });

  it("reads every field the analysis uses, at the age given, and analyses only a valid result", () => {
    const r = stored({ eye: Eye.Left });
    expect(analysisInput(r, 64)).toEqual({
      pattern: r.pattern,
      eye: Eye.Left,
      age: 64,
      thresholds: r.thresholds,
      normativeVersion: r.normativeVersion,
      catchTrials: r.catchTrials,
      gazeTracking: r.gazeTracking,
      normValues: r.normValues,
      strategy: r.strategy,
    });
    expect(analyseStoredResult(r, 64)).toEqual(analyseResult(analysisInput(r, 64)));
    expect(analyseStoredResult(stored({ thresholds: r.thresholds.slice(1) }), 64)).toBeNull();
  });

  it("the simulator stores the indices the result page recomputes, and leaves a result that is not valid as it came", () => {
    const r = stored({ normValues: getPattern(Pattern.P24_2).points.map(() => 30) });
    const withIndices = withStoredIndices(r, 64);
    expect(withIndices.meanDefect).toBe(analyseStoredResult(r, 64)!.display.meanDefect);
    const broken = stored({ thresholds: r.thresholds.slice(1) });
    expect(withStoredIndices(broken, 64)).toBe(broken);
  });
});
