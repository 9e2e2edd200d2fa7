// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { cleanup, screen, within } from "@testing-library/react";

vi.mock("@lingui/core/macro", () => import("./lingui-shim.tsx"));
vi.mock("@lingui/react/macro", () => import("./lingui-shim.tsx"));

import { integratedField } from "../../../core/analytics/binocular.ts";
import { Eye, Pattern } from "../../../core/model/enums.ts";
import { binocularVisit } from "../../../web/results/binocular-visit.ts";
import { fromMeasurement, type WithResult } from "../../../web/results/result-model.ts";
import { esterman, fixture, InViewObserver, renderResults } from "./fixtures.tsx";

// The binocular integrated field under the shown result (issue 30): the visit's two eyes and the integrated field with
// the disability score, or why there is none.

const right = fixture("r1", Eye.Right, "2025-02-03T09:00:00.000Z");
const left = fixture("l1", Eye.Left, "2025-02-03T09:10:00.000Z");
const laterRight = fixture("r2", Eye.Right, "2026-01-10T09:00:00.000Z");
const rightG = fixture("rg", Eye.Right, "2025-08-01T10:00:00.000Z", Pattern.G);
const leftG = fixture("lg", Eye.Left, "2025-08-01T10:05:00.000Z", Pattern.G);
const left10 = fixture("l10", Eye.Left, "2026-01-10T09:30:00.000Z", Pattern.P10_2);
const withResult = (m: typeof right) => fromMeasurement(m) as WithResult;

beforeEach(() => {
  vi.stubGlobal("IntersectionObserver", InViewObserver);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("the binocular integrated field on the result page", () => {
  it("a same-day pair: the right eye, the left eye and the integrated field with the disability score", () => {
    renderResults([right, left, laterRight], "l1");
    const section = screen.getByTestId("binocular-field");
    const plots = [...section.querySelectorAll("figure[data-plot]")].map((f) => f.getAttribute("data-plot"));
    expect(plots).toEqual(["binocular.right", "binocular.left", "binocular.integrated"]);
    const field = integratedField(right.result!, left.result!, Intl.DateTimeFormat().resolvedOptions().timeZone);
    if (!field.applicable) throw new Error(field.reason);
    const { score, max, dense, relative } = field.disability;
    expect(within(section).getByTestId("binocular-score").textContent).toBe(
      `Disability score: ${score} of ${max} · points below 10 dB: ${dense}; below 20 dB: ${relative}`,
    );
    // The integrated field's plot draws one value per point of the 24-2 IVF.
    const ivf = section.querySelector('figure[data-plot="binocular.integrated"] [data-testid="shapes"]')!;
    expect(ivf.textContent).toContain("from the right eye");
  });

  it("says why there is none: another day, another pattern that day, a pattern whose locations do not pair", () => {
    renderResults([right, left, laterRight, left10], "r2");
    expect(screen.getByTestId("binocular-not-applicable").textContent).toBe(
      "Not applicable: the two eyes were tested on different patterns that day.",
    );
    cleanup();
    renderResults([right, laterRight], "r1");
    expect(screen.getByTestId("binocular-not-applicable").textContent).toBe(
      "Not applicable: the other eye was not tested on the same day.",
    );
    cleanup();
    renderResults([rightG, leftG], "lg");
    expect(screen.getByTestId("binocular-not-applicable").textContent).toMatch(/^Not applicable: drawn for 24-2, 30-2 and 10-2/);
    expect(screen.getByTestId("binocular-field").querySelector("figure")).toBeNull();
  });

  it("an Esterman result (binocular already) shows no integrated field", () => {
    renderResults([esterman("e1", "2025-03-01T10:00:00.000Z")], "e1");
    expect(screen.queryByTestId("binocular-field")).toBeNull();
  });

  it("the print gets the visit's field (binocular-visit.ts), whichever eye is printed", () => {
    const results = [right, left, laterRight].map(withResult);
    const fromRight = binocularVisit(results[0]!, results, "UTC")!;
    const fromLeft = binocularVisit(results[1]!, results, "UTC")!;
    expect(fromRight.field).toEqual(fromLeft.field);
    expect([fromRight.right?.id, fromRight.left?.id]).toEqual(["r1", "l1"]);
    expect(binocularVisit(results[2]!, results, "UTC")).toMatchObject({
      right: { id: "r2" },
      left: null,
      field: { reason: "not-same-day" },
    });
  });
});
