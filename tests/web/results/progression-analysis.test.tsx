// @vitest-environment happy-dom
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { cleanup, render, within } from "@testing-library/react";

vi.mock("@lingui/core/macro", () => import("./lingui-shim.tsx"));
vi.mock("@lingui/react/macro", () => import("./lingui-shim.tsx"));

import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import type { SeriesResult } from "../../../core/analytics/progression/eye-progression.ts";
import { DEFAULT_NORMATIVE_VERSION, FULL_FIELD_2_NORMATIVE_VERSION } from "../../../core/analytics/normative/registry.ts";
import { getPattern } from "../../../core/analytics/patterns.ts";
import { Eye, Pattern, Strategy } from "../../../core/model/enums.ts";
import { ProgressionAnalysis } from "../../../web/results/ProgressionAnalysis.tsx";
import { ShapeRendererContext } from "../../../web/results/SceneView.tsx";
import { patientRows } from "../../analytics/reference-data.ts";
import { DomShapes } from "./fixtures.tsx";

// Issue 20, bad input: "a series with mixed patterns, eyes or strategies is analysed per pattern and eye and says which
// results it set aside". The progression view lists each result of the eye it set aside with its date and why, says
// which threshold strategy it pooled, and on G says the VFI is not an index Humphrey defines there.

afterEach(() => cleanup());
beforeAll(() => {
  if (!i18n.locale) i18n.loadAndActivate({ locale: "en", messages: {} });
});

/** The SUNY-IU glaucoma patient's real 24-2 series of the right eye, taken with the Dynamic strategy. */
const od: SeriesResult[] = patientRows()
  .filter((r) => r.eye === "OD")
  .map((r, k) => ({
    id: `od${k}`,
    takenAt: `${r.date}T10:00:00.000Z`,
    eye: Eye.Right,
    pattern: Pattern.P24_2,
    age: r.age,
    thresholds: r.sensitivities,
    normativeVersion: DEFAULT_NORMATIVE_VERSION,
    valid: true,
    unreliable: false,
    strategy: Strategy.DS,
  }));

function renderAnalysis(results: readonly SeriesResult[], pattern: Pattern = Pattern.P24_2) {
  render(
    <I18nProvider i18n={i18n}>
      <ShapeRendererContext.Provider value={DomShapes}>
        <ProgressionAnalysis results={results} baseline={{ right: null, left: null }} pattern={pattern} />
      </ShapeRendererContext.Provider>
    </I18nProvider>,
  );
  const section = document.querySelector("[data-eye='0']") as HTMLElement;
  const items = [...section.querySelectorAll("[data-fact=set-aside] li")].map((li) => ({
    id: li.getAttribute("data-id"),
    reason: li.getAttribute("data-reason"),
    text: li.textContent,
  }));
  return { section, items };
}

describe("the progression analysis says which results it set aside, and why", () => {
  it("a mixed series: each set-aside result of the eye with its date and reason; the other eye's not listed here", () => {
    const mixed: SeriesResult[] = [
      ...od,
      { ...od[4]!, id: "g", takenAt: "2012-05-02T10:00:00.000Z", pattern: Pattern.G, thresholds: new Array(59).fill(30) },
      { ...od[5]!, id: "sors", takenAt: "2012-06-02T10:00:00.000Z", strategy: Strategy.SORS },
      { ...od[6]!, id: "bad", takenAt: "2012-07-02T10:00:00.000Z", unreliable: true },
      { ...od[7]!, id: "screen", takenAt: "2012-08-02T10:00:00.000Z", valid: false, strategy: Strategy.Supra },
      { ...od[8]!, id: "old", takenAt: "2012-09-02T10:00:00.000Z", normativeVersion: "isopter-sim-hill-1" },
      { ...od[9]!, id: "left", takenAt: "2012-10-02T10:00:00.000Z", eye: Eye.Left },
    ];
    const { section, items } = renderAnalysis(mixed);
    expect(items.map((i) => [i.id, i.reason])).toEqual([
      ["g", "other-eye-or-pattern"],
      ["bad", "unreliable"],
      ["screen", "not-threshold"],
      ["old", "no-normative-database"],
    ]);
    const text = (id: string) => items.find((i) => i.id === id)!.text;
    expect(text("g")).toMatch(/2012: other pattern \(G\)$/);
    expect(text("bad")).toMatch(/: marked unreliable$/);
    expect(text("screen")).toMatch(/: not a complete threshold test$/);
    expect(text("old")).toMatch(/: no normative database$/);
    // The date is the result's, as the page writes dates.
    expect(text("bad")).toContain("2012");
    expect(within(section).getByText(/4 results set aside:/)).toBeTruthy();
    // Strategies pool (issue 29), each change named with its date: the last result, to SORS.
    const used = section.querySelector("[data-fact=used]")!.textContent!;
    expect(used).toContain(`${od.length + 1} results analysed`);
    expect(used).not.toContain("only");
    const changes = [...section.querySelectorAll("[data-fact=changes] li")];
    expect(changes[0]!.getAttribute("data-id")).toBe("sors");
    expect(changes[0]!.textContent).toMatch(/2012: Isopter headset · Dynamic → Isopter headset · SORS$/);
    expect(changes).toHaveLength(1);
    expect(section.querySelector("[data-fact=changes]")!.textContent).toContain("Pooled across devices or strategies.");
    // The left eye's result is in the left eye's section.
    const left = document.querySelector("[data-eye='1']")!;
    expect(left.querySelector("[data-fact=set-aside]")).toBeNull();
  });

  it("a clean series lists nothing, and says which one strategy it pooled", () => {
    const { section, items } = renderAnalysis(od);
    expect(items).toEqual([]);
    expect(section.querySelector("[data-fact=set-aside]")).toBeNull();
    expect(section.querySelector("[data-fact=changes]")).toBeNull();
    expect(section.querySelector("[data-fact=used]")!.textContent).toContain("only Dynamic threshold results are pooled");
  });

  it("on G no VFI trend is drawn: GPA's rules define it for 24-2 and 30-2, and the criteria table says so", () => {
    const points = getPattern(Pattern.G).points;
    const g: SeriesResult[] = [0, 1, 2, 3].map((k) => ({
      id: `g${k}`,
      takenAt: `${2020 + k}-03-01T10:00:00.000Z`,
      eye: Eye.Right,
      pattern: Pattern.G,
      age: 60 + k,
      thresholds: points.map((p) => Math.max(0, Math.round(31 - 0.25 * Math.hypot(p.x, p.y) - k * (p.y > 0 ? 1.5 : 0)))),
      normativeVersion: FULL_FIELD_2_NORMATIVE_VERSION,
      valid: true,
      unreliable: false,
      strategy: Strategy.Normal,
    }));
    const { section } = renderAnalysis(g, Pattern.G);
    expect(section.querySelector("[data-fact=vfi]")).toBeNull();
    const vfi = section.querySelector('[data-method="vfi-trend"]')!;
    expect(vfi.getAttribute("data-verdict")).toBe("not-applicable");
    expect(vfi.textContent).toContain("not defined for this pattern");
  });
});

describe("every progression criterion and one reading per eye (issue 30)", () => {
  /** A 24-2 series of 8 results over 3.5 years losing `rate` dB a year at every location: a diffuse loss. */
  const diffuse = (rate: number): SeriesResult[] =>
    Array.from({ length: 8 }, (_, k) => ({
      id: `d${k}`,
      takenAt: `${2021 + Math.floor(k / 2)}-${k % 2 === 0 ? "02" : "08"}-01T10:00:00.000Z`,
      eye: Eye.Right,
      pattern: Pattern.P24_2,
      age: 64,
      thresholds: getPattern(Pattern.P24_2).points.map((p, i) =>
        [25, 34].includes(i) ? null : Math.max(0, 31 - 0.12 * Math.hypot(p.x, p.y) - rate * k * 0.5 + ((i * 7 + k * 3) % 5) * 0.2),
      ),
      normativeVersion: DEFAULT_NORMATIVE_VERSION,
      valid: true,
      unreliable: false,
      strategy: Strategy.DS,
    }));
  const rows = (section: HTMLElement) =>
    Object.fromEntries(
      [...section.querySelectorAll("[data-fact=criteria] tbody tr")].map((tr) => [
        tr.getAttribute("data-method"),
        tr.getAttribute("data-verdict"),
      ]),
    );

  it("lists every method with its verdict in vfprogression's words, or not applicable and why", () => {
    const { section } = renderAnalysis(od);
    const verdicts = rows(section);
    expect(Object.keys(verdicts)).toEqual([
      "events",
      "poplr",
      "md-slope",
      "vfi-trend",
      "cigts",
      "plr-nouri-2012",
      "plr-three-omitting",
      "schell-2014",
      "cluster-trend",
    ]);
    for (const v of Object.values(verdicts)) expect(["worsening", "stable", "improving", "not-applicable"]).toContain(v);
  });

  it("a uniform loss of 2 dB a year reads worsening by most methods, diffuse, which events on PD do not see", () => {
    const { section } = renderAnalysis(diffuse(2));
    const verdicts = rows(section);
    expect(verdicts["md-slope"]).toBe("worsening");
    expect(verdicts.events).toBe("stable");
    const reading = section.querySelector("[data-fact=reading]")!;
    expect(reading.getAttribute("data-verdict")).toBe("worsening");
    expect(reading.textContent).toMatch(/worsening by \d of \d methods; the loss is diffuse, which events on PD do not see/);
  });

  it("three results: the methods that need more say so instead of a verdict", () => {
    const { section } = renderAnalysis(diffuse(2).slice(0, 3));
    const cells = [...section.querySelectorAll("[data-fact=criteria] tr[data-verdict=not-applicable] td.verdict")].map(
      (td) => td.textContent,
    );
    expect(cells.length).toBeGreaterThan(0);
    for (const c of cells) expect(c).toMatch(/^not (applicable|shown)/);
    expect(rows(section)["cigts"]).toBe("not-applicable");
  });
});
