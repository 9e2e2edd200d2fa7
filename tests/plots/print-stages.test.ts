import { describe, expect, it } from "vitest";
import { Eye, Pattern, Strategy } from "../../core/model/enums.ts";
import { clinicTime } from "../../core/model/clinic-time.ts";
import { analyseResult } from "../../core/analytics/result-analysis.ts";
import { normalSensitivity } from "../../core/analytics/pointwise.ts";
import { CURRENT_NORMATIVE_VERSION, getNormativeDatabase } from "../../core/analytics/normative/registry.ts";
import { getPattern } from "../../core/analytics/patterns.ts";
import { resolveText } from "../../core/plots/message.ts";
import { printPageScene } from "../../core/plots/print-page.ts";
import { printStagesLine } from "../../core/plots/print-stages.ts";
import { walk, type GroupNode, type TextNode } from "../../core/plots/scene.ts";
import { exportRecord } from "../../cli/export/record.ts";
import { sampleMeasurement, samplePatient } from "../cli/fixtures.ts";

// Issue 30 §1: the printed page (web print and CLI PDF, one scene) carries a line with the field's stages.

const nv = getNormativeDatabase(Pattern.P24_2, CURRENT_NORMATIVE_VERSION)!;
const normal = normalSensitivity(nv, 60).map((v, i) => (nv.blindSpotIndices.includes(i) ? null : v));
const analyse = (over: { pattern?: Pattern; thresholds?: Array<number | null>; strategy?: Strategy } = {}) =>
  analyseResult({
    pattern: Pattern.P24_2,
    eye: Eye.Right,
    age: 60,
    normativeVersion: CURRENT_NORMATIVE_VERSION,
    thresholds: normal,
    ...over,
  });
const line = (a: ReturnType<typeof analyse>) => {
  const m = printStagesLine(a.stages);
  return m === null ? null : resolveText(m);
};

describe("the printed line of glaucoma stages", () => {
  it("names each method's stage or score", () => {
    expect(line(analyse())).toBe("HPA early · GSS 2 stage 0 · AGIS 0 / 20 · CIGTS 0.0 / 20");
    const deep = analyse({ thresholds: normal.map((v) => (v === null ? null : Math.max(0, v - 14))) });
    const s = deep.stages;
    if (!s.agis.applicable || !s.cigts.applicable || !s.gss2.applicable || !s.hodapp.applicable) throw new Error("not staged");
    expect(line(deep)).toBe(
      `HPA severe · GSS 2 stage ${s.gss2.stage} · AGIS ${s.agis.score} / 20 · CIGTS ${s.cigts.score.toFixed(1)} / 20`,
    );
  });

  it("says why none applies, and prints no line on patterns the methods are not defined for", () => {
    expect(line(analyse({ strategy: Strategy.Supra }))).toBe("not applicable: a screening measures no thresholds");
    const holed = normal.slice();
    holed[3] = null;
    expect(line(analyse({ thresholds: holed }))).toBe("not applicable: a location was not measured");
    expect(line(analyse({ pattern: Pattern.P10_2, thresholds: getPattern(Pattern.P10_2).points.map(() => 30) }))).toBeNull();
  });

  it.each([
    [Pattern.P24_2, Strategy.DS, true],
    [Pattern.P30_2, Strategy.Normal, true],
    [Pattern.P10_2, Strategy.DS, false],
    [Pattern.G, Strategy.Normal, false],
  ])(
    "the page's header (pattern %s, strategy %s): a 'Glaucoma stage' row %s, below the columns, inside the header",
    (pattern, strategy, shown) => {
      const patient = samplePatient(7);
      const r = exportRecord(patient, sampleMeasurement(patient, 3, { pattern, strategy, eye: Eye.Right }))!;
      const mm = 96 / 25.4;
      const page = printPageScene({
        patient: r.patient,
        age: r.age,
        result: r.result,
        analysis: r.analysis(),
        markedReliable: true,
        taken: clinicTime(r.result.takenAt, "Europe/Berlin"),
        reference: null,
        progression: null,
        page: { width: 210 * mm, height: 297 * mm, unitsPerMm: mm },
      });
      const header = page.nodes.find((n): n is GroupNode => n.kind === "group" && n.role === "print.header")!;
      const texts = [...walk(header.children)].filter((n): n is TextNode => n.kind === "text");
      const id = (n: TextNode) => (typeof n.text === "string" ? "" : n.text.id);
      const stages = texts.find((n) => id(n) === "plots.print.stages");
      expect(Boolean(stages)).toBe(shown);
      if (!stages) return;
      const across = new Set(
        texts.filter((n) => ["plots.print.normals", "plots.print.progression", "plots.print.stages"].includes(id(n))).map((n) => n.y),
      );
      const columnsBottom = Math.max(...texts.filter((n) => !across.has(n.y)).map((n) => n.y));
      expect(Math.min(...across) - columnsBottom).toBeGreaterThanOrEqual(2.7 * mm); // no row of the columns under the lines
      expect(stages.y).toBe(Math.max(...across)); // last
      expect(stages.y + 3.9 * mm).toBeLessThanOrEqual((297 - 10) * 0.2 * mm); // within the header's 20 %
      const value = texts.find((n) => n.y === stages.y && n !== stages)!;
      expect(resolveText(value.text)).toBe(resolveText(printStagesLine(r.analysis().stages)!));
    },
  );
});
