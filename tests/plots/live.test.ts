import { describe, expect, it } from "vitest";
import { Eye, Pattern } from "../../core/model/enums.ts";
import { liveScene, liveState, progressFillShown, progressPercent, runningTestScene } from "../../core/plots/live.ts";
import type { ThresholdPoint } from "../../core/model/running-test.ts";
import { group, ofKind, textsOf } from "./helpers.ts";

const box = { pattern: Pattern.P24_2, eye: Eye.Right, width: 320, height: 360 } as const;
const t = (index: number, answerTime: number | null, dBValue: number | null = 25): ThresholdPoint => ({ index, dBValue, answerTime });

// Accounts seed §4: "Live-view colour per point: green if answered, red if last updated and unanswered, gray otherwise."
describe("Live-view colour per point: green if answered, red if last updated and unanswered, gray otherwise", () => {
  it("states", () => {
    expect(liveState(t(3, 420), 3)).toBe("answered");
    expect(liveState(t(3, 420), 7)).toBe("answered");
    expect(liveState(t(3, null), 3)).toBe("notAnswered");
    expect(liveState(t(3, null), 7)).toBe("presented");
    expect(liveState(t(3, null), null)).toBe("presented");
  });

  it("colours in the scene: green, red, gray; untested locations are empty rings", () => {
    const scene = liveScene({ ...box, variant: "threshold", thresholds: [t(0, 400), t(1, null), t(2, null)], lastUpdatedIndex: 1 });
    const all = ofKind(group(scene, "locations"), "circle");
    // The last updated location also carries an ink ring (told apart without colour).
    const rings = all.filter((c) => c.stroke === "plot-ink");
    expect(rings).toHaveLength(1);
    const circles = all.filter((c) => c.stroke !== "plot-ink");
    expect(circles).toHaveLength(54);
    expect(rings[0]!.cx).toBe(circles[1]!.cx);
    expect(circles.slice(0, 3).map((c) => c.fill)).toEqual(["live-answered", "live-unanswered", "live-presented"]);
    expect(circles.slice(3).every((c) => c.fill === undefined && c.stroke !== undefined)).toBe(true);
  });

  it("the latest report of a location wins", () => {
    const scene = liveScene({ ...box, variant: "threshold", thresholds: [t(0, null), t(0, 380)], lastUpdatedIndex: 0 });
    expect(ofKind(group(scene, "locations"), "circle")[0]!.fill).toBe("live-answered");
  });

  // Accounts seed §2: "a legend of answered, not answered and presented stimuli, plus a progress bar; supra-threshold
  // and Esterman title variants exist."
  it("legend of answered, not answered and presented; title variants", () => {
    const make = (variant: "threshold" | "supra" | "esterman") =>
      liveScene({
        ...box,
        ...(variant === "esterman" ? { pattern: Pattern.Esterman, eye: Eye.Binocular } : {}),
        variant,
        thresholds: [],
        lastUpdatedIndex: null,
      });
    expect(textsOf(group(make("threshold"), "legend"))).toEqual(["Answered", "Not answered", "Presented"]);
    expect(ofKind(group(make("threshold"), "legend"), "circle").map((c) => c.fill)).toEqual([
      "live-answered",
      "live-unanswered",
      "live-presented",
    ]);
    expect([make("threshold"), make("supra"), make("esterman")].map((s) => s.title?.default)).toEqual([
      "Live measurement",
      "Live measurement: supra-threshold",
      "Live measurement: Esterman",
    ]);
    expect(ofKind(group(make("esterman"), "locations"), "circle")).toHaveLength(120);
  });
});

// Accounts seed §9: "Progress bar shows floor of percent, hides fill at 2% or less."
describe("Progress bar shows floor of percent, hides fill at 2% or less", () => {
  it("floor of percent", () => {
    expect(progressPercent(1, 3)).toBe(33);
    expect(progressPercent(2, 3)).toBe(66);
    expect(progressPercent(54, 54)).toBe(100);
    expect(progressPercent(0, 0)).toBe(0);
  });

  it("hides fill at 2% or less", () => {
    expect(progressFillShown(2)).toBe(false);
    expect(progressFillShown(3)).toBe(true);
    const at = (done: number) =>
      liveScene({ ...box, variant: "threshold", thresholds: [], lastUpdatedIndex: null, progress: { done, total: 100 } });
    expect(ofKind(group(at(2), "progress"), "rect")).toHaveLength(1);
    expect(ofKind(group(at(3), "progress"), "rect")).toHaveLength(2);
    expect(textsOf(group(at(57), "progress"))).toEqual(["57 %"]);
  });

  it("a running test's progress is nTested of nLocations", () => {
    const scene = runningTestScene(
      { thresholds: [t(0, 300), t(5, null)], lastUpdatedIndex: 5, nTested: 2, nLocations: 54 },
      { ...box, variant: "threshold" },
    );
    expect(textsOf(group(scene, "progress"))).toEqual(["3 %"]);
    expect(ofKind(group(scene, "locations"), "circle").filter((c) => c.fill === "live-unanswered")).toHaveLength(1);
    expect(ofKind(group(scene, "locations"), "circle").filter((c) => c.stroke === "plot-ink")).toHaveLength(1);
  });

  it("without its legend rows the panel gives the whole height to the field", () => {
    const bare = liveScene({ ...box, variant: "threshold", thresholds: [], lastUpdatedIndex: null, showLegend: false });
    expect(() => group(bare, "legend")).toThrow();
    expect(() => group(bare, "progress")).toThrow();
    const full = liveScene({ ...box, variant: "threshold", thresholds: [], lastUpdatedIndex: null });
    const spread = (s: typeof bare) => {
      const ys = ofKind(group(s, "locations"), "circle").map((c) => c.cy);
      return Math.max(...ys) - Math.min(...ys);
    };
    expect(spread(bare)).toBeGreaterThan(spread(full));
  });

  it("by default the ratio is locations reported over the pattern's locations", () => {
    const scene = liveScene({ ...box, variant: "threshold", thresholds: [t(0, 1), t(1, 1), t(1, 1)], lastUpdatedIndex: 1 });
    expect(textsOf(group(scene, "progress"))).toEqual([`${Math.floor(200 / 54)} %`]);
  });
});
