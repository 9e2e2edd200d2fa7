import { describe, expect, it } from "vitest";
import { integratedField, type IntegratedField, type MonocularField } from "../../core/analytics/binocular.ts";
import { clinicTime } from "../../core/model/clinic-time.ts";
import { Eye, Pattern, Strategy } from "../../core/model/enums.ts";
import { binocularScenes, defectCell, integratedFieldScene, monocularValuesScene } from "../../core/plots/binocular.ts";
import { resolveText } from "../../core/plots/message.ts";
import { printBinocularScenes } from "../../core/plots/print-binocular.ts";
import { printPageScene } from "../../core/plots/print-page.ts";
import type { GroupNode, Scene, TextNode } from "../../core/plots/scene.ts";
import { textInkBox } from "../../core/plots/text-metrics.ts";
import { exportRecord } from "../../cli/export/record.ts";
import { sampleMeasurement, samplePatient } from "../cli/fixtures.ts";
import { group, ofKind, textsOf } from "./helpers.ts";

// The integrated field beside the two eyes (core/plots/binocular.ts) and on the print (print-binocular.ts).

const takenAt = "2024-05-06T09:00:00.000Z";
const eyeField = (eye: Eye, thresholds: number[], pattern: Pattern = Pattern.P24_2): MonocularField => ({
  eye,
  pattern,
  strategy: Strategy.DS,
  thresholds,
  takenAt,
});
const of = (r: MonocularField, l: MonocularField): IntegratedField => {
  const out = integratedField(r, l);
  if (!out.applicable) throw new Error(out.reason);
  return out;
};
// Right eye: a dense loss above (y > 0), healthy below; left eye: 15 dB everywhere (a relative loss), blind spots 0.
const right = eyeField(
  Eye.Right,
  Array.from({ length: 54 }, (_, i) => (i === 25 || i === 34 ? 0 : i < 27 ? 4 : 31)),
);
const left = eyeField(
  Eye.Left,
  Array.from({ length: 54 }, (_, i) => (i === 25 || i === 34 ? 0 : 15)),
);
const field = of(right, left);

describe("the integrated field's scene", () => {
  const scene = integratedFieldScene(field, { width: 240, height: 276, showScore: true });
  const locations = group(scene, "locations");

  it("one value per IVF point, with its defect cell: 15 dB above (left eye) in grey, 31 below (right eye) without", () => {
    const values = ofKind(locations, "text").map((t) => resolveText(t.text));
    expect(values).toHaveLength(52);
    // Above: 15 from the left eye but at its blind spot (-15, 3), where the right eye's 4 dB is all there is; below: 31
    // from the right eye but at its blind spot (15, -3), where the left eye gives 15.
    expect(values.filter((v) => v === "15")).toHaveLength(26);
    expect(values.filter((v) => v === "4")).toHaveLength(1);
    expect(field.disability).toEqual({ score: 28, max: 104, dense: 1, relative: 27 });
    expect(ofKind(locations, "rect").filter((r) => r.fill === "grey-band-6")).toHaveLength(26);
    expect(ofKind(locations, "rect").filter((r) => r.fill === "grey-band-1")).toHaveLength(1);
    expect([defectCell(9.5).fill, defectCell(10).fill, defectCell(19).fill, defectCell(20).fill]).toEqual([
      "grey-band-1",
      "grey-band-6",
      "grey-band-6",
      null,
    ]);
  });

  it("a triangle in the giving eye's colour beside each value, pointing to its side; none where both are equal", () => {
    const triangles = ofKind(locations, "polyline");
    const fromRight = field.points.filter((p) => p.source === "right").length;
    const fromLeft = field.points.filter((p) => p.source === "left").length;
    expect(fromRight).toBeGreaterThan(0);
    expect(fromLeft).toBeGreaterThan(0);
    expect(triangles.filter((t) => t.fill === "plot-eye-right")).toHaveLength(fromRight);
    expect(triangles.filter((t) => t.fill === "plot-eye-left")).toHaveLength(fromLeft);
    // A right-eye triangle's tip (its first point) is its rightmost point.
    for (const t of triangles.filter((t) => t.fill === "plot-eye-right")) expect(t.points[0]).toBe(Math.max(t.points[0]!, t.points[2]!));
    const equal = of(right, { ...left, thresholds: right.thresholds.map((v, i) => (i === 25 || i === 34 ? 0 : v)) });
    const mirroredEqual = equal.points.filter((p) => p.source === "both").length;
    expect(ofKind(group(integratedFieldScene(equal, { width: 240, height: 276 }), "locations"), "polyline")).toHaveLength(
      equal.points.length - mirroredEqual,
    );
  });

  it("the legend says the score and each cell's count; its texts and the values keep clear of each other", () => {
    const legend = textsOf(group(scene, "legend"));
    expect(legend).toEqual([
      `Disability score ${field.disability.score} of ${field.disability.max}`,
      "< 10 dB (1)",
      "10-19 dB (26)",
      "from the right eye",
      "from the left eye",
    ]);
    const boxes = ofKind(scene.nodes, "text")
      .filter((t: TextNode) => !t.rotation)
      .map((t) => textInkBox(t, resolveText(t.text)));
    const overlaps = boxes.flatMap((a, i) => boxes.slice(i + 1).filter((b) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1));
    expect(overlaps).toEqual([]);
    // Without the score (the screen says it as text), the legend starts with the cells.
    expect(textsOf(group(integratedFieldScene(field, { width: 240, height: 276 }), "legend"))[0]).toBe("< 10 dB (1)");
  });

  it("in a wide box (a print cell) the legend stands beside the field", () => {
    const wide = integratedFieldScene(field, { width: 250, height: 150, showScore: true });
    const legendX = Math.min(...ofKind(group(wide, "legend"), "rect").map((r) => r.x));
    const fieldX = Math.max(...ofKind(group(wide, "locations"), "text").map((t) => t.x));
    expect(legendX).toBeGreaterThan(fieldX);
  });
});

describe("the two eyes beside it", () => {
  it("each eye as the patient sees it, its blind spot muted and without a cell", () => {
    const scenes = binocularScenes(right, left, field, { width: 240, height: 276 });
    expect([scenes.right.plot, scenes.left.plot, scenes.integrated.plot]).toEqual([
      "binocular.right",
      "binocular.left",
      "binocular.integrated",
    ]);
    const texts = ofKind(group(scenes.left, "locations"), "text");
    expect(texts).toHaveLength(54);
    expect(texts.filter((t) => t.fill === "plot-ink-muted")).toHaveLength(2);
    // The left eye's blind spot is at x = -15 degrees: left of the centre.
    const centre = 120;
    for (const t of texts.filter((t) => t.fill === "plot-ink-muted")) expect(t.x).toBeLessThan(centre);
    const rightScene = monocularValuesScene(right, { width: 240, height: 276 });
    expect(ofKind(group(rightScene, "locations"), "rect").filter((r) => r.fill === "grey-band-1")).toHaveLength(26);
  });
});

describe("the print", () => {
  const sample = () => {
    const p = samplePatient(7);
    return exportRecord(p, sampleMeasurement(p, 3, { pattern: Pattern.P24_2, strategy: Strategy.DS, eye: Eye.Right }))!;
  };
  const mm = 96 / 25.4;
  const page = (binocular: Parameters<typeof printBinocularScenes>[0]) => {
    const r = sample();
    return printPageScene({
      patient: r.patient,
      age: r.age,
      result: r.result,
      analysis: r.analysis(),
      markedReliable: true,
      taken: clinicTime(r.result.takenAt, "Europe/Berlin"),
      binocular,
      page: { width: 210 * mm, height: 297 * mm, unitsPerMm: mm },
    });
  };
  const plotRoles = (s: Scene) =>
    (s.nodes.find((n): n is GroupNode => n.kind === "group" && n.role === "print.plots")?.children ?? []).map((n) => (n as GroupNode).role);

  it("prints the integrated field with its score when it applies, in a cell of the plot grid", () => {
    const printed = page(field);
    expect(plotRoles(printed)).toContain("binocular.integrated");
    const cell = printed.nodes.find((n): n is GroupNode => n.kind === "group" && n.role === "print.plots")!;
    const ivf = cell.children.find((n): n is GroupNode => n.kind === "group" && n.role === "binocular.integrated")!;
    expect(textsOf(ivf)).toContain(`Disability score ${field.disability.score} of ${field.disability.max}`);
    // The legends' cell still follows the plots.
    expect(plotRoles(printed).slice(-2)).toEqual(["legend.thresholdBands", "legend.totalDeviation"]);
  });

  it("prints nothing of it when it does not apply or is absent", () => {
    for (const binocular of [null, undefined, { applicable: false as const, reason: "not-same-day" as const }]) {
      expect(plotRoles(page(binocular))).not.toContain("binocular.integrated");
      expect(printBinocularScenes(binocular, { width: 100, height: 80 })).toEqual([]);
    }
  });
});
