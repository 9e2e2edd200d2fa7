import { describe, expect, it } from "vitest";
import { Eye, Pattern } from "../../core/model/enums.ts";
import { octopusNumericalScene } from "../../core/plots/octopus.ts";
import { gridCells, pageScene, placeScene, pointsPerMm, printRegions } from "../../core/plots/page.ts";
import { toSvg } from "../../core/plots/svg.ts";
import { assertWellFormedXml } from "./xml.ts";
import { sampleThresholds } from "./fixtures.ts";

// Accounts seed §9: "Print: margin 5 mm; layout 20% header, 73% plot, 7% gaze."
describe("Print: margin 5 mm; layout 20% header, 73% plot, 7% gaze", () => {
  it("splits an A4 page (210 x 297 mm) in millimetres", () => {
    const { header, plots, gaze } = printRegions(210, 297, 1);
    expect(header).toEqual({ x: 5, y: 5, width: 200, height: 287 * 0.2 });
    expect(plots.y).toBeCloseTo(5 + 287 * 0.2);
    expect(plots.height).toBeCloseTo(287 * 0.73);
    expect(gaze.height).toBeCloseTo(287 * 0.07);
    expect(gaze.y + gaze.height).toBeCloseTo(297 - 5);
  });

  it("defaults to points (72 per inch)", () => {
    expect(printRegions(595, 842).header.x).toBeCloseTo(5 * pointsPerMm);
  });
});

describe("placing scenes on a page", () => {
  const scene = octopusNumericalScene({ pattern: Pattern.P24_2, eye: Eye.Right, width: 300, height: 300, thresholds: sampleThresholds() });

  it("scales a scene to fit its box, centred, aspect kept", () => {
    const g = placeScene(scene, { x: 10, y: 20, width: 150, height: 100 });
    expect(g.scale).toBeCloseTo(1 / 3);
    expect(g.x).toBeCloseTo(10 + 25);
    expect(g.y).toBe(20);
  });

  it("a grid of cells fills the box", () => {
    const cells = gridCells({ x: 0, y: 0, width: 100, height: 50 }, 2, 2, 10);
    expect(cells.map((c) => [c.x, c.y, c.width, c.height])).toEqual([
      [0, 0, 45, 20],
      [55, 0, 45, 20],
      [0, 30, 45, 20],
      [55, 30, 45, 20],
    ]);
  });

  it("a page of scenes serialises to well-formed SVG", () => {
    const page = pageScene(
      "page",
      595,
      842,
      gridCells(printRegions(595, 842).plots, 2, 2, 8).map((box) => ({ scene, box })),
    );
    assertWellFormedXml(toSvg(page));
  });
});
