// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, fireEvent, screen, within } from "@testing-library/react";

vi.mock("@lingui/core/macro", () => import("./lingui-shim.tsx"));
vi.mock("@lingui/react/macro", () => import("./lingui-shim.tsx"));

import { Eye } from "../../../core/model/enums.ts";
import { fitScale, PLOT_MAX, plotScale } from "../../../web/results/plot-fit.ts";
import { FIELD_SIZE } from "../../../web/results/ResultDisplay.tsx";
import { esterman, fixture, InViewObserver, renderResults } from "./fixtures.tsx";

// The result plots scale with the space they have (issue 21: they stayed 240 px wide in a wide window), inside the seeds'
// zoom wrapper (scheduling seed §2 "Shared interface pieces: ... zoom wrapper"), keeping their aspect ratio.

const right = fixture("r1", Eye.Right, "2025-02-03T09:00:00.000Z");

/** The width the zoom wrapper measures (happy-dom lays nothing out): what the result card has inside at a window size. */
function layOut(width: number) {
  vi.spyOn(HTMLElement.prototype, "getBoundingClientRect").mockImplementation(function (this: HTMLElement) {
    const w = this.classList.contains("zoom-measure") ? width : 0;
    return { width: w, height: 0, x: 0, y: 0, top: 0, left: 0, right: w, bottom: 0, toJSON: () => ({}) } as DOMRect;
  });
}

/** Every drawn plot's box as SceneView sizes its figure. */
const boxes = () =>
  Object.fromEntries(
    [...screen.getByTestId("result-display").querySelectorAll<HTMLElement>("figure[data-plot]")].map((f) => [
      f.getAttribute("data-plot")!,
      { width: parseFloat(f.style.width), height: parseFloat(f.style.height) },
    ]),
  );
const fieldPlots = ["octopus.grayscale", "octopus.thresholds", "octopus.numerical", "octopus.loss"];

beforeEach(() => {
  vi.stubGlobal("IntersectionObserver", InViewObserver);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe("fitting plots to the width", () => {
  it("columns near 320 px fill the width: four at 1920 px wide (1476 px in the card), three at 1280 (978), one on a phone", () => {
    expect(fitScale(1476, 6) * FIELD_SIZE).toBe(360);
    expect(fitScale(978, 6) * FIELD_SIZE).toBe(318);
    // Four columns of whole pixels fit in 1478 px with their gaps (360.5 px each would overflow by 2 px).
    expect(4 * fitScale(1478, 6) * FIELD_SIZE + 3 * 12).toBeLessThanOrEqual(1478);
    expect(fitScale(330, 6) * FIELD_SIZE).toBe(330);
    // Never more columns than plots, never beyond PLOT_MAX when fitted.
    expect(fitScale(1478, 1) * FIELD_SIZE).toBe(PLOT_MAX);
  });
  it("a plot wider than the space shrinks to it (down to its floor), and the zoom multiplies", () => {
    expect(plotScale(1.5, 480, 330, 1) * 480).toBeCloseTo(330);
    expect(plotScale(1.5, 960, 330, 1, 0.6)).toBe(0.6);
    expect(plotScale(1.5, 240, 1478, 1.25)).toBe(1.875);
  });
});

describe("result page plots in the zoom wrapper", () => {
  it("a wide window draws the fields larger than 240 px, square as their scenes; the zoom steps in and back to fit", async () => {
    layOut(1476);
    renderResults([right], "r1");
    const wide = boxes();
    for (const plot of fieldPlots) {
      expect(wide[plot]!.width, plot).toBe(360);
      expect(wide[plot]!.height, plot).toBe(360);
    }
    // The gaze chart, four fields wide, is drawn through the same factor and no wider than the card.
    expect(wide.gaze!.width).toBeLessThanOrEqual(1476);
    expect(wide.gaze!.width).toBeGreaterThan(FIELD_SIZE * 4);

    const zoom = within(screen.getByRole("region", { name: "Plots" }));
    expect(zoom.getByTestId("zoom-reset").textContent).toContain("100%");
    await act(async () => fireEvent.click(zoom.getByRole("button", { name: "Zoom in" })));
    expect(zoom.getByTestId("zoom-reset").textContent).toContain("125%");
    expect(boxes()["octopus.grayscale"]).toEqual({ width: 450, height: 450 });
    await act(async () => fireEvent.click(zoom.getByRole("button", { name: "Zoom out" })));
    await act(async () => fireEvent.click(zoom.getByRole("button", { name: "Zoom out" })));
    expect(boxes()["octopus.grayscale"]).toEqual({ width: 270, height: 270 });
    await act(async () => fireEvent.click(zoom.getByTestId("zoom-reset")));
    expect(boxes()["octopus.grayscale"]).toEqual({ width: 360, height: 360 });
  });

  it("a phone (390 px wide: 330 px in the card) fits every field in the width; the gaze chart keeps a legible size and scrolls", () => {
    layOut(330);
    renderResults([right], "r1");
    const narrow = boxes();
    for (const plot of fieldPlots) expect(narrow[plot]!.width, plot).toBeLessThanOrEqual(330);
    expect(narrow.gaze!.width).toBeGreaterThanOrEqual(Math.round(FIELD_SIZE * 4 * 0.6));
    expect(narrow.gaze!.width).toBeLessThan(FIELD_SIZE * 4);
    expect(screen.getByTestId("result-display").querySelector(".gaze-scroll figure[data-plot='gaze']")).not.toBeNull();
  });

  it("an Esterman field, twice as wide as a field, shrinks to a phone's width keeping its aspect ratio", () => {
    layOut(330);
    renderResults([esterman("e1", "2025-05-01T09:00:00.000Z")], "e1");
    const box = boxes().esterman!;
    expect(box.width).toBe(330);
    expect(Math.abs(box.height - (330 / (FIELD_SIZE * 2)) * FIELD_SIZE * 1.5)).toBeLessThanOrEqual(1);
  });
});
