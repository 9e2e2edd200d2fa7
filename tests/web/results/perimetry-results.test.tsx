// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, fireEvent, screen, within } from "@testing-library/react";

vi.mock("@lingui/core/macro", () => import("./lingui-shim.tsx"));
vi.mock("@lingui/react/macro", () => import("./lingui-shim.tsx"));

import { memoryStorage } from "../../../adapters/storage/index.ts";
import { Eye, Pattern, Strategy } from "../../../core/model/enums.ts";
import { StorageKeys } from "../../../core/ports.ts";
import { pendingDraws } from "../../../web/results/draw-timing.ts";
import { analyseStored } from "../../../web/results/result-model.ts";
import { engine, esterman, fixture, InViewObserver, patient, renderResults } from "./fixtures.tsx";

// The result side of the perimetry page (accounts seed §2 "Patient dashboard and profile", §3 client settings, §4
// "Baseline"), rendered with a DOM stand-in for Konva.

const right1 = fixture("r1", Eye.Right, "2025-02-03T09:00:00.000Z");
const left1 = fixture("l1", Eye.Left, "2025-02-03T09:10:00.000Z");
const right2 = fixture("r2", Eye.Right, "2026-01-10T09:00:00.000Z");
const left2 = fixture("l2", Eye.Left, "2026-01-10T09:12:00.000Z");
// A G result stored before G had normals (the simulator's own hill of vision, a version the dashboard has no tables for).
const olderG = (m: ReturnType<typeof engine>) => ({ ...m, result: { ...m.result!, normativeVersion: "isopter-sim-hill-1" } });
const rightG = olderG(engine("rg", Eye.Right, "2025-08-01T10:00:00.000Z", Pattern.G, Strategy.Normal));
const all = [right1, left1, right2, left2, rightG];

const plots = () => [...document.querySelectorAll("figure[data-plot]")].map((f) => f.getAttribute("data-plot"));
const plotsIn = (el: Element) => [...el.querySelectorAll("figure[data-plot]")].map((f) => f.getAttribute("data-plot"));
const local = (storage: ReturnType<typeof memoryStorage>, key: string) => JSON.parse(storage.local.get(key) ?? "null");
const switchNamed = (name: string) => within(screen.getByTestId("result-display")).getByRole("switch", { name });
const slopeCount = (eye: number) => document.querySelector(`.slopes li[data-eye="${eye}"]`)!.textContent!;

beforeEach(() => {
  vi.stubGlobal("IntersectionObserver", InViewObserver);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("the result display", () => {
  it("shows every index of the seed and every plot of a 24-2 result", () => {
    renderResults(all, "r2");
    const indices = [...document.querySelectorAll("tr[data-index]")].map((r) => r.getAttribute("data-index"));
    expect(indices).toEqual([
      "ms",
      "md",
      "slv",
      "hmd",
      "psd",
      "vfi",
      "ght",
      "pattern",
      "strategy",
      "stimulusSize",
      "showtime",
      "interval",
      "background",
      "fixation",
      "fp",
      "fn",
      "fl",
      "reliability",
      "duration",
      "presentations",
      "maxIntensity",
      "normative",
      "gazeCalibration",
      "device",
    ]);
    const analysis = analyseStored(right2.result!, patient.birthdate)!;
    expect(document.querySelector('tr[data-index="md"] td.num')!.textContent).toBe(analysis.display.meanDefect!.toFixed(2));
    expect(document.querySelector('tr[data-index="background"] td.num')!.textContent).toBe("31.5");
    expect(document.querySelector('tr[data-index="normative"] td.num')!.textContent).toContain(
      "visualFields 1.0.8 SUNY-IU 24-2 (sunyiu_24d2)",
    );
    expect(plots()).toEqual(
      expect.arrayContaining([
        "octopus.grayscale",
        "octopus.thresholds",
        "octopus.numerical",
        "octopus.loss",
        "humphrey.totalDeviationProbability",
        "humphrey.patternDeviationProbability",
        "gaze",
      ]),
    );
  });

  it("labels each index with its convention and prints MD's and PSD's p-values like the plots' levels (issue 20)", () => {
    renderResults(all, "r2");
    const row = (k: string) => document.querySelector(`tr[data-index="${k}"]`)!;
    const analysis = analyseStored(right2.result!, patient.birthdate)!;
    expect(row("md").querySelector(".index-note")!.textContent).toBe("Octopus: positive = loss");
    expect(row("hmd").querySelector(".index-note")!.textContent).toBe("Humphrey: negative = loss");
    expect(row("hmd").querySelector("td.num")!.textContent).toBe(analysis.display.md!.toFixed(2));
    const p = (level: number) => (level > 0.05 ? "p ≥ 5 %" : `p < ${level * 100} %`);
    expect(row("hmd").querySelector("td.p")!.textContent).toBe(p(analysis.normative!.globalLevels.tmd));
    expect(row("psd").querySelector("td.p")!.textContent).toBe(p(analysis.normative!.globalLevels.psd));
    expect(row("normative").querySelector(".index-note")!.textContent).toBe("From public healthy controls, not a manufacturer's database");
  });

  it("states the test parameters: pattern, strategy, SORS stage, stimulus size, showtime, interval, background, fixation monitoring", () => {
    const sors = engine("s1", Eye.Right, "2026-02-01T10:00:00.000Z", Pattern.G, Strategy.SORS);
    renderResults([...all, sors], "s1");
    const value = (k: string) => document.querySelector(`tr[data-index="${k}"] td.num`)!.textContent;
    const r = sors.result!;
    expect(value("pattern")).toBe("G");
    expect(value("strategy")).toBe("SORS");
    expect(value("sorsStage")).toBe(String(r.sorsStage));
    expect(value("stimulusSize")).toBe("III");
    expect(value("showtime")).toBe(String(r.stimuliShowtime));
    expect(value("interval")).toBe(String(r.stimuliInterval));
    expect(value("background")).toBe("31.5");
    expect(value("fixation")).toBe("Blind spot (Heijl-Krakau) + Gaze tracking");
    // G has normals now; the GHT is not defined for it, and the page says so.
    expect(value("ght")).toBe("Not defined for G");
    // Humphrey defines the VFI for 24-2, 30-2 and 10-2: on G the note says it is not Humphrey's index there (issue 20).
    expect(document.querySelector('tr[data-index="vfi"] .index-note')!.textContent).toBe(
      "not a Humphrey-defined index on G (computed the same way)",
    );
    expect(value("hmd")).not.toBe("–");
    expect(value("normative")).toContain("Isopter full-field model 2, G (Iowa healthy controls, SUNY-IU spread)");
  });

  it("every plot that mounted reports its draw (draw-timing)", () => {
    renderResults(all, "r2");
    expect(pendingDraws()).toBe(0);
  });

  it("an Esterman result shows its Esterman score and the Esterman plot, and cannot be a baseline", () => {
    const e = esterman("e1", "2026-02-01T10:00:00.000Z");
    renderResults([...all, e], "e1");
    expect(document.querySelector('tr[data-index="esterman"] td.num')!.textContent).toBe(String(e.result!.estermanScore));
    expect(plots()).toContain("esterman");
    expect((switchNamed("Baseline") as HTMLButtonElement).disabled).toBe(true);
  });
});

describe("the progression analysis beside the mean-defect chart (issue 20)", () => {
  it("per eye: GPA events against the baseline pair, PoPLR's p with the slope map, the criteria; set-aside results counted", () => {
    const series = ["2022-01-10", "2022-09-10", "2023-05-10", "2024-01-10"].map((d, k) =>
      fixture(`s${k}`, Eye.Right, `${d}T09:00:00.000Z`),
    );
    renderResults([...series, left1, rightG], "s3");
    const right = document.querySelector('.progression-eye[data-eye="0"]')!;
    const fact = (k: string) => right.querySelector(`[data-fact="${k}"]`)!.textContent!;
    expect(["No progression", "Possible progression", "Likely progression"]).toContain(fact("events"));
    expect(fact("poplr")).toMatch(/^p = (< 0\.1|\d+\.\d) %$/);
    // The VFI trend is shown once, in the criteria table under GPA's rules (5 exams over 2 years): 4 results are too few.
    expect(right.querySelector('[data-fact="vfi"]')).toBeNull();
    expect(right.querySelector('[data-method="vfi-trend"]')!.getAttribute("data-verdict")).toBe("not-applicable");
    expect(fact("used")).toContain("4 results analysed");
    expect(plotsIn(right)).toEqual(["progression.map"]);
    // The left eye has one 24-2 result: no analysis, and the page says why.
    const left = document.querySelector('.progression-eye[data-eye="1"]')!;
    expect(left.querySelector('[data-fact="none"]')!.textContent).toContain("at least 3 results");
  });

  it("three results within 6 months: events, but no trend, and it says why", () => {
    const series = ["2024-01-10", "2024-02-10", "2024-03-10"].map((d, k) => fixture(`t${k}`, Eye.Right, `${d}T09:00:00.000Z`));
    renderResults(series, "t2");
    const right = document.querySelector('.progression-eye[data-eye="0"]')!;
    expect(right.querySelector('[data-fact="poplr"]')!.textContent).toBe("No slope: the results span less than 6 months");
    expect(right.querySelector('[data-fact="events"]')).not.toBeNull();
  });
});

describe("a screening result (supra-threshold, one level)", () => {
  const supra = engine("su", Eye.Right, "2026-03-01T09:00:00.000Z", Pattern.P24_2, Strategy.Supra);

  it("shows the share of locations seen and the seen / not-seen plot, not thresholds or deviations", () => {
    renderResults([...all, supra], "su");
    const seen = supra.result!.thresholds.filter((t) => t > 0).length;
    expect([...document.querySelectorAll("tr[data-index]")].map((r) => r.getAttribute("data-index")).slice(0, 2)).toEqual([
      "seen",
      "seenCount",
    ]);
    expect(document.querySelector('tr[data-index="seenCount"] td.num')!.textContent).toBe(`${seen}/54`);
    expect(plotsIn(screen.getByTestId("result-display"))).toEqual(["screening", "gaze"]);
    expect(screen.queryByRole("button", { name: "Show the detailed analysis" })).toBeNull();
  });

  it("cannot be a baseline, says why, and stays off the mean-defect chart", () => {
    renderResults([...all, supra], "su");
    expect((switchNamed("Baseline") as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText("A screening result has no thresholds, so it cannot be the baseline.")).toBeTruthy();
    expect(slopeCount(Eye.Right)).toContain("2 results");
  });
});

describe("client settings in local storage (accounts seed §3)", () => {
  it("'analysisExpanded': the detailed analysis opens, and stays open on the next visit", () => {
    const { storage } = renderResults(all, "r2");
    expect(plots()).not.toContain("humphrey.thresholds");
    fireEvent.click(screen.getByRole("button", { name: "Show the detailed analysis" }));
    expect(plots()).toEqual(
      expect.arrayContaining([
        "humphrey.thresholds",
        "humphrey.totalDeviation",
        "humphrey.patternDeviation",
        "bebie",
        "octopus.difference",
      ]),
    );
    expect(local(storage, StorageKeys.local.clientSettings)).toMatchObject({ analysisExpanded: true });
    cleanup();
    renderResults(all, "r2", storage);
    expect(plots()).toContain("humphrey.thresholds");
  });

  it("'progressionChartExpanded (default true)': the chart shows at first; hiding it is remembered", () => {
    const { storage } = renderResults(all, "r2");
    const section = screen.getByTestId("progression");
    expect(plotsIn(section)).toEqual(["progression"]);
    fireEvent.click(within(section).getByRole("button", { name: "Hide" }));
    expect(plotsIn(section)).toEqual([]);
    expect(local(storage, StorageKeys.local.clientSettings)).toMatchObject({ progressionChartExpanded: false });
  });

  it("'pattern (default analysis pattern 24-2)': the chart's pattern choice is stored", () => {
    const { storage } = renderResults(all, "r2");
    const group = screen.getByRole("group", { name: "Pattern" });
    expect(within(group).getByRole("button", { name: "24-2" }).getAttribute("aria-pressed")).toBe("true");
    fireEvent.click(within(group).getByRole("button", { name: "G" }));
    expect(within(group).getByRole("button", { name: "G" }).getAttribute("aria-pressed")).toBe("true");
    expect(local(storage, StorageKeys.local.clientSettings)).toMatchObject({ pattern: Pattern.G });
    // Only G results on the chart now: one right-eye result.
    expect(slopeCount(Eye.Right)).toMatch(/ · 1 result$/);
  });

  it("opens on the pattern the patient has the most results of: a patient tested only on G sees the G chart (issue 30)", () => {
    const onlyG = [
      engine("g1", Eye.Right, "2025-01-10T09:00:00.000Z", Pattern.G, Strategy.Normal),
      engine("g2", Eye.Right, "2025-07-10T09:00:00.000Z", Pattern.G, Strategy.Normal),
    ];
    renderResults(onlyG, "g2");
    const group = screen.getByRole("group", { name: "Pattern" });
    expect(within(group).getByRole("button", { name: "G" }).getAttribute("aria-pressed")).toBe("true");
    expect(screen.queryByText(/No valid, reliable 24-2 or G results/)).toBeNull();
    expect(slopeCount(Eye.Right)).toMatch(/ · 2 results$/);
  });

  it("'historyExpanded': the history under a result opens and the choice is stored; the full history page always shows it", async () => {
    const { storage } = renderResults(all, "r2");
    const history = screen.getByTestId("history");
    expect(within(history).queryAllByTestId("history-day")).toHaveLength(0);
    fireEvent.click(within(history).getByRole("button", { name: "Show" }));
    expect(within(history).getAllByTestId("history-day").length).toBeGreaterThan(0);
    expect(local(storage, StorageKeys.local.clientSettings)).toMatchObject({ historyExpanded: true });
    cleanup();
    renderResults(all, "all", memoryStorage());
    expect(screen.queryByTestId("result-display")).toBeNull();
    expect(screen.getAllByTestId("history-day").length).toBeGreaterThan(0);
  });
});

describe("baseline and unreliable toggles (accounts seed §4)", () => {
  it("'Baseline: at most one per eye; toggling the same id clears it'", () => {
    const storage = memoryStorage();
    renderResults(all, "r2", storage);
    expect(switchNamed("Baseline").getAttribute("aria-checked")).toBe("false");
    fireEvent.click(switchNamed("Baseline"));
    expect(switchNamed("Baseline").getAttribute("aria-checked")).toBe("true");
    // Stored as "baseline ids (left id, right id)".
    expect(local(storage, StorageKeys.local.baselineResultIds)).toEqual([null, "r2"]);
    cleanup();
    // Another right-eye result replaces it; the left eye keeps its own.
    renderResults(all, "l2", storage);
    fireEvent.click(switchNamed("Baseline"));
    cleanup();
    renderResults(all, "r1", storage);
    fireEvent.click(switchNamed("Baseline"));
    expect(local(storage, StorageKeys.local.baselineResultIds)).toEqual(["l2", "r1"]);
    fireEvent.click(switchNamed("Baseline"));
    expect(local(storage, StorageKeys.local.baselineResultIds)).toEqual(["l2", null]);
  });

  it("a G result scored with the current normative database can be the baseline", () => {
    const g = engine("g2", Eye.Right, "2025-09-01T10:00:00.000Z", Pattern.G, Strategy.Normal);
    renderResults([...all, g], "g2");
    expect((switchNamed("Baseline") as HTMLButtonElement).disabled).toBe(false);
    expect(plots()).toEqual(expect.arrayContaining(["humphrey.totalDeviationProbability", "humphrey.patternDeviationProbability"]));
  });

  it("'Only results with a normative database can be baseline': an older G result's toggle is disabled, with the reason", () => {
    renderResults(all, "rg");
    expect((switchNamed("Baseline") as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText("This result has no normative database, so it cannot be the baseline.")).toBeTruthy();
  });

  it("'Baseline toggle is disabled when ... the measurement is unreliable'; 'Marking a measurement unreliable excludes it from the chart'", () => {
    const { storage } = renderResults(all, "r2");
    expect(slopeCount(Eye.Right)).toContain("2 results");
    fireEvent.click(switchNamed("Unreliable"));
    expect(local(storage, StorageKeys.local.unreliableResultIds)).toEqual(["r2"]);
    expect((switchNamed("Baseline") as HTMLButtonElement).disabled).toBe(true);
    expect(slopeCount(Eye.Right)).toMatch(/ · 1 result$/);
    fireEvent.click(switchNamed("Unreliable"));
    expect(local(storage, StorageKeys.local.unreliableResultIds)).toEqual([]);
    expect(slopeCount(Eye.Right)).toContain("2 results");
  });

  it("'marking it reliable again also clears a baseline mark'", () => {
    const { storage } = renderResults(all, "r2");
    fireEvent.click(switchNamed("Baseline"));
    fireEvent.click(switchNamed("Unreliable"));
    expect(local(storage, StorageKeys.local.baselineResultIds)).toEqual([null, "r2"]);
    fireEvent.click(switchNamed("Unreliable"));
    expect(local(storage, StorageKeys.local.baselineResultIds)).toEqual([null, null]);
    expect(switchNamed("Baseline").getAttribute("aria-checked")).toBe("false");
  });

  it("a baseline starts the chart's slope from it ('computed from the baseline onwards if one exists')", () => {
    renderResults([...all, fixture("r3", Eye.Right, "2026-04-01T09:00:00.000Z")], "r2");
    expect(slopeCount(Eye.Right)).toContain("3 results");
    fireEvent.click(switchNamed("Baseline"));
    expect(slopeCount(Eye.Right)).toContain("2 results");
  });
});

describe("the visual-field history (accounts seed §2)", () => {
  const open = async () => {
    renderResults(all, "all");
    await act(async () => {
      await Promise.resolve();
    });
  };

  it("'a result-detail history shows left/right eye pairs per date', newest day first", async () => {
    await open();
    const days = screen.getAllByTestId("history-day");
    const cells = (day: HTMLElement, heading: string) => {
      const column = within(day).getByRole("heading", { name: heading }).parentElement!;
      return within(column)
        .queryAllByTestId("history-cell")
        .map((c) => c.getAttribute("data-measurement"));
    };
    expect(days).toHaveLength(3);
    expect([cells(days[0]!, "Right eye (OD)"), cells(days[0]!, "Left eye (OS)")]).toEqual([["r2"], ["l2"]]);
    expect([cells(days[1]!, "Right eye (OD)"), cells(days[1]!, "Left eye (OS)")]).toEqual([["rg"], []]);
    expect(within(days[1]!).getByText("No result")).toBeTruthy();
    expect([cells(days[2]!, "Right eye (OD)"), cells(days[2]!, "Left eye (OS)")]).toEqual([["r1"], ["l1"]]);
  });

  it("show/hide toggles choose the plots every cell draws", async () => {
    await open();
    const cell = () => screen.getAllByTestId("history-cell").find((c) => c.getAttribute("data-measurement") === "r2")!;
    const chips = screen.getByRole("group", { name: "Plots shown" });
    expect(plotsIn(cell())).toEqual(["octopus.grayscale", "humphrey.totalDeviationProbability"]);
    fireEvent.click(within(chips).getByRole("button", { name: "Thresholds" }));
    await act(async () => {
      await Promise.resolve();
    });
    expect(plotsIn(cell())).toEqual(["octopus.grayscale", "octopus.thresholds", "humphrey.totalDeviationProbability"]);
    fireEvent.click(within(chips).getByRole("button", { name: "Greyscale" }));
    expect(within(chips).getByRole("button", { name: "Greyscale" }).getAttribute("aria-pressed")).toBe("false");
    expect(plotsIn(cell())).toEqual(["octopus.thresholds", "humphrey.totalDeviationProbability"]);
    // An older G result has no normative database: no probability map in its cell.
    const g = screen.getAllByTestId("history-cell").find((c) => c.getAttribute("data-measurement") === "rg")!;
    expect(plotsIn(g)).toEqual(["octopus.thresholds"]);
  });
});
