import { describe, expect, it } from "vitest";
import { Eye, Pattern, Strategy, patternLabel } from "../../core/model/enums.ts";
import { clinicTime } from "../../core/model/clinic-time.ts";
import { resolveText } from "../../core/plots/message.ts";
import { printPageScene } from "../../core/plots/print-page.ts";
import { resultPlots } from "../../core/plots/result-plots.ts";
import type { GroupNode, LineNode, Scene, SceneNode, TextNode } from "../../core/plots/scene.ts";
import { textInkBox, type TextBox } from "../../core/plots/text-metrics.ts";
import { exportRecord } from "../../cli/export/record.ts";
import { sampleMeasurement, samplePatient } from "../cli/fixtures.ts";

// Issue 19 (print page: "on G the central threshold labels overlap") and issue 21 (the numbers of "Values (dB)" run
// into its axes on the result page). Every label's ink box is estimated from its font size and characters
// (core/plots/text-metrics.ts: DejaVu Sans advance widths, cap height); on every field plot of the printed page and of
// the result page, for every pattern the product runs, no two labels may overlap and no label may touch an axis line.

interface Placed {
  readonly box: TextBox;
  readonly text: string;
  readonly role: string;
}
interface Segment {
  readonly x1: number;
  readonly y1: number;
  readonly x2: number;
  readonly y2: number;
}

/** Texts and axis lines of a plot in its own coordinates (groups' offsets and scales applied). */
function flatten(nodes: readonly SceneNode[], role = "", dx = 0, dy = 0, s = 1, out = { texts: [] as Placed[], axes: [] as Segment[] }) {
  for (const n of nodes) {
    if (n.kind === "group") {
      const g = n as GroupNode;
      flatten(g.children, g.role ?? role, dx + g.x * s, dy + g.y * s, s * (g.scale ?? 1), out);
    } else if (n.kind === "text" && !n.rotation) {
      const b = textInkBox(n as TextNode, resolveText(n.text));
      out.texts.push({
        box: { x0: dx + b.x0 * s, x1: dx + b.x1 * s, y0: dy + b.y0 * s, y1: dy + b.y1 * s },
        text: resolveText(n.text),
        role,
      });
    } else if (n.kind === "line" && role === "axes") {
      const l = n as LineNode;
      out.axes.push({ x1: dx + l.x1 * s, y1: dy + l.y1 * s, x2: dx + l.x2 * s, y2: dy + l.y2 * s });
    }
  }
  return out;
}

const overlap = (a: TextBox, b: TextBox) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
/** An axis-parallel segment through a box's inside. */
const crosses = (l: Segment, b: TextBox) =>
  Math.min(l.x1, l.x2) < b.x1 && Math.max(l.x1, l.x2) > b.x0 && Math.min(l.y1, l.y2) < b.y1 && Math.max(l.y1, l.y2) > b.y0;

/** Every overlap of a plot's labels with each other and with its axis lines, named. */
function collisions(plot: string, nodes: readonly SceneNode[]): string[] {
  const { texts, axes } = flatten(nodes);
  const found: string[] = [];
  const locations = texts.filter((t) => t.role === "locations");
  for (let i = 0; i < texts.length; i++)
    for (let j = i + 1; j < texts.length; j++)
      if ((texts[i]!.role === "locations" || texts[j]!.role === "locations") && overlap(texts[i]!.box, texts[j]!.box))
        found.push(`${plot}: "${texts[i]!.text}" and "${texts[j]!.text}" overlap`);
  for (const t of [...locations, ...texts.filter((t) => t.role === "axes" || t.role === "legend")])
    for (const l of axes) if (crosses(l, t.box)) found.push(`${plot}: "${t.text}" (${t.role}) on an axis line`);
  return found;
}

/** Every pattern the product runs, with a strategy it runs it with; threshold patterns in both eyes. */
const cases: Array<[Pattern, Strategy, Eye]> = [
  ...[Pattern.P24_2, Pattern.P30_2, Pattern.P10_2, Pattern.G].flatMap(
    (p): Array<[Pattern, Strategy, Eye]> => [
      [p, Strategy.DS, Eye.Right],
      [p, Strategy.Normal, Eye.Left],
    ],
  ),
  [Pattern.G, Strategy.SORS_screening, Eye.Right],
  [Pattern.P24_2, Strategy.Supra, Eye.Left],
  [Pattern.S28, Strategy.Supra, Eye.Right],
  [Pattern.C40, Strategy.OneLevel, Eye.Left],
  [Pattern.Esterman, Strategy.OneLevel, Eye.Binocular],
];

function sample(pattern: Pattern, strategy: Strategy, eye: Eye, k: number) {
  const p = samplePatient(7);
  return exportRecord(p, sampleMeasurement(p, k, { pattern, strategy, eye }))!;
}

/** The field plots of a page (each a placed group whose role is its plot id). */
function fieldPlots(page: Scene): GroupNode[] {
  const plots = page.nodes.find((n): n is GroupNode => n.kind === "group" && n.role === "print.plots")!;
  return plots.children.filter((n): n is GroupNode => n.kind === "group" && !!n.role && !n.role.startsWith("legend") && n.role !== "bebie");
}

describe("labels of the field plots keep clear of each other and of the axes", () => {
  it.each(cases)("pattern %s, strategy %s, eye %s: the printed page (A4 in CSS px, with a difference plot)", (pattern, strategy, eye) => {
    const r = sample(pattern, strategy, eye, 3);
    const previous = sample(pattern, strategy, eye, 1);
    const mm = 96 / 25.4;
    const page = printPageScene({
      patient: r.patient,
      age: r.age,
      result: r.result,
      analysis: r.analysis(),
      markedReliable: true,
      taken: clinicTime(r.result.takenAt, "Europe/Berlin"),
      reference: previous.result.thresholds,
      page: { width: 210 * mm, height: 297 * mm, unitsPerMm: mm },
    });
    const plots = fieldPlots(page);
    expect(plots.length).toBeGreaterThan(0);
    const labels = plots.flatMap((g) => flatten(g.children).texts.filter((t) => t.role === "locations"));
    if (strategy === Strategy.DS || strategy === Strategy.Normal) expect(labels.length).toBeGreaterThan(100); // it checked numbers
    expect(plots.flatMap((g) => collisions(`${patternLabel[pattern]} ${g.role}`, g.children))).toEqual([]);
  });

  it.each(cases)("pattern %s, strategy %s, eye %s: the result page's plots on screen", (pattern, strategy, eye) => {
    const r = sample(pattern, strategy, eye, 3);
    for (const size of [240, 280, 360]) {
      const plots = resultPlots({
        result: r.result,
        analysis: r.analysis(),
        reference: sample(pattern, strategy, eye, 1).result.thresholds,
        medium: "screen",
        field: { width: size, height: size },
      });
      const scenes = Object.entries(plots).filter(([k, s]) => s !== null && k !== "bebie" && k !== "gaze") as Array<[string, Scene]>;
      expect(scenes.length).toBeGreaterThan(0);
      expect(scenes.flatMap(([k, s]) => collisions(`${patternLabel[pattern]} ${k} at ${size} px`, s.nodes))).toEqual([]);
    }
  });

  it("the check is not blind: the G centre at the 24-2's font size overlaps, and an uncut axis runs through its labels", async () => {
    const { fieldFrame, fieldAxes } = await import("../../core/plots/field.ts");
    const { text } = await import("../../core/plots/scene.ts");
    const frame = fieldFrame({ pattern: Pattern.G, eye: Eye.Right, width: 250, height: 200 });
    const marks = frame.at.map((p) => text(p.x, p.y, "30", { size: 9, tabular: true }));
    const nodes: SceneNode[] = [fieldAxes(frame), { kind: "group", x: 0, y: 0, role: "locations", children: marks }];
    const found = collisions("G", nodes);
    expect(found.some((f) => /"30" and "30" overlap/.test(f))).toBe(true);
    expect(found.some((f) => /on an axis line/.test(f))).toBe(true);
  });
});
