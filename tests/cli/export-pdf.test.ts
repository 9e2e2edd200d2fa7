import { describe, expect, it } from "vitest";
import { inflateSync } from "node:zlib";
import { Eye, Pattern, Strategy } from "../../core/model/enums.ts";
import { text, type Scene } from "../../core/plots/scene.ts";
import { pdfDocument } from "../../cli/export/pdf/pdf-document.ts";
import { fieldScenes, reportPdf, A4 } from "../../cli/export/pdf/report.ts";
import { placeScene, sceneOperators } from "../../cli/export/pdf/scene-to-pdf.ts";
import { textWidth, winAnsiBytes } from "../../cli/export/pdf/winansi.ts";
import { exportRecord } from "../../cli/export/record.ts";
import { sampleMeasurement, samplePatient } from "./fixtures.ts";

/** Checks the cross-reference table: every offset points at its "N 0 obj". Returns the inflated content streams. */
function parsePdf(buf: Buffer): { contents: string[]; objects: number } {
  const s = buf.toString("latin1");
  expect(s.startsWith("%PDF-1.4\n")).toBe(true);
  expect(s.trimEnd().endsWith("%%EOF")).toBe(true);
  const startxref = Number(/startxref\n(\d+)\n%%EOF\s*$/.exec(s)![1]);
  expect(s.slice(startxref, startxref + 4)).toBe("xref");
  const [, count] = /xref\n0 (\d+)\n/.exec(s.slice(startxref))!;
  const entries = s.slice(startxref).split("\n").slice(2, 2 + Number(count));
  entries.slice(1).forEach((e, i) => expect(s.slice(Number(e.slice(0, 10)), Number(e.slice(0, 10)) + `${i + 1} 0 obj`.length)).toBe(`${i + 1} 0 obj`));
  const contents: string[] = [];
  const re = /<< \/Length (\d+) \/Filter \/FlateDecode >>\nstream\n/g;
  for (let m; (m = re.exec(s)); ) {
    const start = m.index + m[0].length;
    contents.push(inflateSync(buf.subarray(start, start + Number(m[1]))).toString("latin1"));
  }
  return { contents, objects: Number(count) };
}

const hexOf = (t: string) => `<${winAnsiBytes(t).map((b) => b.toString(16).padStart(2, "0")).join("")}>`;

describe("PDF report", () => {
  it("is one A4 page with a valid cross-reference table", () => {
    const p = samplePatient(11);
    const { contents } = parsePdf(reportPdf(exportRecord(p, sampleMeasurement(p, 0))!));
    expect(contents).toHaveLength(1);
    expect(reportPdf(exportRecord(p, sampleMeasurement(p, 0))!).toString("latin1")).toContain(`/MediaBox [0 0 ${A4.width} ${A4.height}]`);
  });

  it("draws the core/plots scenes: every threshold label of the Humphrey plot is on the page", () => {
    const p = samplePatient(11);
    const r = exportRecord(p, sampleMeasurement(p, 0))!;
    const [page] = parsePdf(reportPdf(r)).contents;
    for (const t of r.result.thresholds) expect(page).toContain(hexOf(t < 0 ? "<0" : String(Math.round(t))));
    expect(page).toContain(hexOf(p.name));
    expect(page).toContain(hexOf("Total deviation probability"));
  });

  it("uses the six field plots with a normative database, the Esterman plot for Esterman", () => {
    const p = samplePatient(11);
    const plots = (o: Parameters<typeof sampleMeasurement>[2]) => fieldScenes(exportRecord(p, sampleMeasurement(p, 0, o))!, 280, 200, 560, 600).map((s) => s.plot);
    expect(plots({})).toEqual(["octopus.thresholds", "octopus.grayscale", "humphrey.thresholds", "humphrey.totalDeviation", "humphrey.totalDeviationProbability", "humphrey.patternDeviationProbability"].map((x) => expect.stringContaining(x.split(".")[1]!)));
    expect(plots({ pattern: Pattern.Esterman, eye: Eye.Binocular })).toEqual(["esterman"]);
    // A screening has levels seen or not, no thresholds: drawn seen / not seen, as the result page draws it.
    expect(plots({ strategy: Strategy.Supra })).toEqual(["screening"]);
  });

  it("maps scene primitives to PDF operators", () => {
    const scene: Scene = {
      plot: "t", width: 100, height: 50,
      nodes: [
        { kind: "rect", x: 1, y: 2, width: 3, height: 4, fill: "#ff0000" },
        { kind: "line", x1: 0, y1: 0, x2: 10, y2: 10, stroke: "#000000", strokeWidth: 2, dash: [2, 1] },
        { kind: "group", x: 5, y: 6, children: [text(10, 20, "Ab", { anchor: "middle", size: 10 })] },
      ],
    };
    const ops = sceneOperators(scene);
    expect(ops).toContain("1 0 0 rg\n1 2 3 4 re\nf");
    expect(ops).toContain("0 0 0 RG\n2 w\n[2 1] 0 d\n0 0 m 10 10 l\nS");
    expect(ops).toContain("q\n1 0 0 1 5 6 cm");
    // Centred: shifted left by half the Helvetica width of "Ab" at 10 pt.
    expect(ops).toContain(`${-textWidth("Ab", 10, false) / 2} ${-0.35 * 10} Td`);
    expect(placeScene(scene, 800, 10, 20)).toMatch(/^q\n1 0 0 -1 10 780 cm\n/);
  });

  it("Helvetica widths and WinAnsi encoding: degrees and dashes survive, unknown characters become ?", () => {
    expect(textWidth("30", 10, false)).toBeCloseTo(11.12, 10);
    expect(winAnsiBytes("30° –")).toEqual([0x33, 0x30, 0xb0, 0x20, 0x96]);
    expect(winAnsiBytes("≤")).toEqual([0x3c, 0x3d]);
    expect(winAnsiBytes("中")).toEqual([0x3f]);
  });

  it("an empty document still has a valid structure", () => {
    const { objects } = parsePdf(pdfDocument([{ width: 100, height: 100, content: "" }], { title: "Tést" }));
    expect(objects).toBe(8);
  });
});
