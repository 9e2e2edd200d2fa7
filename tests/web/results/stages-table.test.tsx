// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, render, screen, within } from "@testing-library/react";

vi.mock("@lingui/core/macro", () => import("./lingui-shim.tsx"));
vi.mock("@lingui/react/macro", () => import("./lingui-shim.tsx"));

import { Eye, Pattern, Strategy } from "../../../core/model/enums.ts";
import { analyseResult, type ResultInput } from "../../../core/analytics/result-analysis.ts";
import { normalSensitivity } from "../../../core/analytics/pointwise.ts";
import { CURRENT_NORMATIVE_VERSION, getNormativeDatabase } from "../../../core/analytics/normative/registry.ts";
import { getPattern } from "../../../core/analytics/patterns.ts";
import { StagesTable } from "../../../web/results/StagesTable.tsx";

// Issue 30 §1: the result page's stage block: HPA with each criterion (value, met or not), GSS 2, the AGIS and CIGTS
// scores, each credited; not applicable with the reason in words.

afterEach(() => cleanup());

const nv = getNormativeDatabase(Pattern.P24_2, CURRENT_NORMATIVE_VERSION)!;
const normal = normalSensitivity(nv, 60).map((v, i) => (nv.blindSpotIndices.includes(i) ? null : v));
const at = (x: number, y: number) => getPattern(Pattern.P24_2).points.findIndex((p) => p.x === x && p.y === y);
const analyse = (over: Partial<ResultInput> = {}) =>
  analyseResult({
    pattern: Pattern.P24_2,
    eye: Eye.Right,
    age: 60,
    normativeVersion: CURRENT_NORMATIVE_VERSION,
    thresholds: normal,
    ...over,
  });

describe("the result page's glaucoma stage", () => {
  it("a field with a superior arcuate defect and a central point below 15 dB: each method and each HPA criterion", () => {
    const thresholds = normal.slice();
    // An upper arcuate band 12 dB down, and (-3, 3) at 10 dB: within 5 degrees of fixation, in one hemifield.
    for (const [x, y] of [
      [-21, 9],
      [-15, 9],
      [-9, 9],
      [-3, 9],
      [3, 9],
      [9, 9],
      [-15, 15],
      [-9, 15],
      [15, 9],
      [21, 9],
      [-27, 3],
      [-21, 3],
    ] as const)
      thresholds[at(x, y)] = Math.max(0, (thresholds[at(x, y)] ?? 0) - 12);
    thresholds[at(-3, 3)] = 10;
    const analysis = analyse({ thresholds });
    render(<StagesTable analysis={analysis} />);
    const summary = screen.getByTestId("stages-summary");
    const s = analysis.stages;
    if (!s.hodapp.applicable || !s.agis.applicable || !s.cigts.applicable || !s.gss2.applicable) throw new Error("not staged");
    expect(s.hodapp.stage).toBe("moderate");
    const cell = (key: string) => summary.querySelector(`[data-stage=${key}] td`)!.textContent;
    expect(cell("hodapp")).toBe("Moderate");
    expect(cell("agis")).toBe(`${s.agis.score} / 20`);
    expect(cell("cigts")).toBe(`${s.cigts.score.toFixed(1)} / 20`);
    expect(cell("gss2")).toMatch(/^(Stage \d|Border-line)$/);
    expect(within(summary).getByText("Hodapp, Parrish & Anderson 1993")).toBeTruthy();
    expect(within(summary).getByText("Musch et al. 1999")).toBeTruthy();

    const criteria = screen.getByTestId("stages-hodapp");
    expect(criteria.textContent).toContain("Counts over 52 points");
    const row = (id: string) => criteria.querySelector(`[data-criterion=${id}]`)!;
    expect(row("md").querySelector("td")!.textContent).toBe(`${s.hodapp.criteria[0]!.value.toFixed(2)} dB`);
    const central = row("central-below-15").querySelectorAll("td");
    expect(central[0]!.textContent).toBe("1");
    expect(central[1]!.textContent).toBe("≤ 0 ✗not met");
    expect(central[2]!.textContent).toBe("–");
    expect(row("central-below-15-hemifields").querySelectorAll("td")[2]!.textContent).toBe("≤ 1 ✓met");
  });

  it("not applicable, with the reason in words: a 10-2 field, a screening", () => {
    const tenTwo = getPattern(Pattern.P10_2).points.map(() => 30);
    render(<StagesTable analysis={analyse({ pattern: Pattern.P10_2, thresholds: tenTwo })} />);
    expect(screen.getByTestId("stages").textContent).toBe("Glaucoma stage: not applicable, defined on 24-2 and 30-2 only.");
    cleanup();
    render(<StagesTable analysis={analyse({ strategy: Strategy.Supra })} />);
    expect(screen.getByTestId("stages").textContent).toBe("Glaucoma stage: not applicable, a screening measures no thresholds.");
  });

  it("nothing without an analysis", () => {
    const { container } = render(<StagesTable analysis={null} />);
    expect(container.textContent).toBe("");
  });
});
