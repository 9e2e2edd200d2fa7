import { describe, expect, it } from "vitest";
import { Eye, Pattern, Strategy } from "../../core/model/enums.ts";
import { clinicTime } from "../../core/model/clinic-time.ts";
import { CURRENT_NORMATIVE_VERSION } from "../../core/analytics/normative/registry.ts";
import { getPattern } from "../../core/analytics/patterns.ts";
import type { SeriesResult } from "../../core/analytics/progression/eye-progression.ts";
import { eyeReading, type METHOD_IDS, notApplicable, type MethodOutcome } from "../../core/analytics/progression/criteria/index.ts";
import { criteriaLine, keyFigure, readingMessage } from "../../core/plots/criteria-text.ts";
import { resolveText } from "../../core/plots/message.ts";
import { printPageScene } from "../../core/plots/print-page.ts";
import { printProgression } from "../../core/plots/print-header.ts";
import { walk, type GroupNode, type TextNode } from "../../core/plots/scene.ts";
import { exportRecord } from "../../cli/export/record.ts";
import { sampleMeasurement, samplePatient } from "../cli/fixtures.ts";

// Issue 30 §2: "Verdicts use vfprogression's words: worsening, stable, improving. Beside the methods, one reading per
// eye. Example: 'worsening by 4 of 6 methods; the loss is diffuse, which events on PD do not see'." The words are made
// once (core/plots/criteria-text.ts) for the progression view and the print.

const outcome = (method: (typeof METHOD_IDS)[number], verdict: "worsening" | "stable" | "improving"): MethodOutcome => ({
  method,
  applicable: true,
  verdict,
  detail: {},
});

describe("the eye's reading in words", () => {
  it("the issue's example: 4 of 6 methods worsening on TD and MD, events on PD stable, reads as diffuse loss PD does not see", () => {
    const methods = [
      outcome("events", "stable"),
      outcome("poplr", "worsening"),
      outcome("md-slope", "worsening"),
      outcome("vfi-trend", "stable"),
      outcome("plr-nouri-2012", "worsening"),
      outcome("cluster-trend", "worsening"),
      notApplicable("cigts", "too-few-visits"),
      notApplicable("plr-three-omitting", "too-few-visits"),
      notApplicable("schell-2014", "too-few-visits"),
    ];
    expect(resolveText(readingMessage(eyeReading(methods, null)))).toBe(
      "worsening by 4 of 6 methods; the loss is diffuse, which events on PD do not see",
    );
  });

  it("a localised loss, a split, and too few methods each say so", () => {
    expect(
      resolveText(
        readingMessage(eyeReading([outcome("events", "worsening"), outcome("poplr", "worsening"), outcome("md-slope", "stable")], null)),
      ),
    ).toBe("worsening by 2 of 3 methods; the loss is localised");
    expect(
      resolveText(
        readingMessage(
          eyeReading(
            [outcome("events", "stable"), outcome("poplr", "worsening"), outcome("md-slope", "improving"), outcome("cigts", "stable")],
            null,
          ),
        ),
      ),
    ).toBe("no majority: 1 worsening, 2 stable, 1 improving of 4; the loss is diffuse, which events on PD do not see");
    expect(resolveText(readingMessage(eyeReading([outcome("events", "stable"), notApplicable("poplr", "too-few-visits")], null)))).toBe(
      "no reading: 1 of 2 methods apply",
    );
  });

  it("a method's key figure states the number behind its verdict", () => {
    const poplr: MethodOutcome = { method: "poplr", applicable: true, verdict: "worsening", detail: { p: 0.006 } };
    expect(resolveText(keyFigure(poplr)!)).toBe("p = 0.6 %");
    const md: MethodOutcome = { method: "md-slope", applicable: true, verdict: "worsening", detail: { slopePerYear: -0.84, p: 0.0004 } };
    expect(resolveText(keyFigure(md)!)).toBe("-0.84 dB/year (p < 0.1 %)");
    expect(keyFigure(notApplicable("cigts", "too-few-visits"))).toBeNull();
  });
});

describe("the printed line of criteria", () => {
  /** A right-eye 24-2 series of 8 results over 3.5 years losing 2 dB a year everywhere (a diffuse loss). */
  const thresholds = (k: number) =>
    getPattern(Pattern.P24_2).points.map((p, i) =>
      [25, 34].includes(i) ? null : Math.max(0, Math.round(31 - 0.12 * Math.hypot(p.x, p.y) - k + ((i * 7 + k * 3) % 5) * 0.2)),
    );

  it("reads the series as one, naming the methods behind the verdict, below the GPA line and inside the header", () => {
    const patient = samplePatient(7);
    const measurement = sampleMeasurement(patient, 3, { pattern: Pattern.P24_2, strategy: Strategy.DS, eye: Eye.Right });
    const r = exportRecord(patient, measurement)!;
    const series: SeriesResult[] = Array.from({ length: 8 }, (_, k) => ({
      id: k === 7 ? r.result.measurementId : `s${k}`,
      takenAt: k === 7 ? r.result.takenAt : new Date(Date.parse(r.result.takenAt) - (7 - k) * 182.6 * 86_400_000).toISOString(),
      eye: Eye.Right,
      pattern: Pattern.P24_2,
      age: 60,
      thresholds: thresholds(k),
      normativeVersion: CURRENT_NORMATIVE_VERSION,
      valid: true,
      unreliable: false,
      strategy: Strategy.DS,
    }));
    const progression = printProgression(series, r.result, null, "Europe/Berlin");
    const line = criteriaLine(progression.analysis.criteria!)!;
    expect(resolveText(line)).toMatch(/^worsening by \d of \d methods \(.*MD slope.*\); the loss is diffuse/);
    const mm = 96 / 25.4;
    const page = printPageScene({
      patient: r.patient,
      age: r.age,
      result: r.result,
      analysis: r.analysis(),
      markedReliable: true,
      taken: clinicTime(r.result.takenAt, "Europe/Berlin"),
      reference: null,
      progression,
      page: { width: 210 * mm, height: 297 * mm, unitsPerMm: mm },
    });
    const header = page.nodes.find((n): n is GroupNode => n.kind === "group" && n.role === "print.header")!;
    const texts = [...walk(header.children)].filter((n): n is TextNode => n.kind === "text");
    const id = (n: TextNode) => (typeof n.text === "string" ? "" : n.text.id);
    const label = (name: string) => texts.find((n) => id(n) === name)!;
    const criteria = label("plots.print.criteria");
    expect(criteria.y).toBeGreaterThan(label("plots.print.progression").y);
    expect(criteria.y).toBeLessThan(label("plots.print.stages").y);
    expect(resolveText(texts.find((n) => n.y === criteria.y && n !== criteria)!.text)).toBe(resolveText(line));
    const across = new Set(
      texts
        .filter((n) => ["plots.print.normals", "plots.print.progression", "plots.print.criteria", "plots.print.stages"].includes(id(n)))
        .map((n) => n.y),
    );
    const columnsBottom = Math.max(...texts.filter((n) => !across.has(n.y)).map((n) => n.y));
    expect(Math.min(...across) - columnsBottom).toBeGreaterThanOrEqual(2.7 * mm); // no row of the columns under the lines
    expect(Math.max(...across) + 3.9 * mm).toBeLessThanOrEqual((297 - 10) * 0.2 * mm); // within the header's 20 %
  });
});
