import { describe, expect, it } from "vitest";
import { gazeBarWidth, gazeDrawable, gazePrintSampleLimit, gazeScaleMax, gazeScene } from "../../core/plots/gaze.ts";
import { group, ofKind, textsOf } from "./helpers.ts";

const samples = (n: number, v = 3) => Array.from({ length: n }, () => v);

// Accounts seed §9: "Gaze chart: bar width 7 on screen, 1 in print; scale fixed at 40 if max under 10, else max plus 20;
// value -1 means could not measure."
describe("gaze chart", () => {
  it("bar width 7 on screen, 1 in print", () => {
    expect(gazeBarWidth("screen")).toBe(7);
    expect(gazeBarWidth("print")).toBe(1);
    for (const medium of ["screen", "print"] as const) {
      const bars = ofKind(group(gazeScene({ samples: samples(50), medium, width: 600, height: 100 }), "bars"), "rect");
      expect(bars).toHaveLength(50);
      expect(new Set(bars.map((b) => b.width))).toEqual(new Set([gazeBarWidth(medium)]));
    }
  });

  it("scale fixed at 40 if max under 10, else max plus 20", () => {
    expect(gazeScaleMax([1, 2, 9.9])).toBe(40);
    expect(gazeScaleMax([1, 10])).toBe(30);
    expect(gazeScaleMax([-1, -1])).toBe(40);
    expect(gazeScaleMax(Array.from({ length: 500_000 }, (_, i) => i % 30))).toBe(49); // no call-stack overflow
    expect(gazeScaleMax([3, 35])).toBe(55);
    expect(gazeScaleMax([])).toBe(40);
    // -1 is no measurement and never the max.
    expect(gazeScaleMax([-1, -1])).toBe(40);
    const scene = gazeScene({ samples: [2, 35], medium: "screen", width: 600, height: 200 });
    const labels = textsOf(scene)
      .filter((t) => /^\d+$/.test(t))
      .map(Number);
    expect(Math.max(...labels)).toBeLessThanOrEqual(55);
    // A bar of value 35 on a 0..55 scale fills 35/55 of the plot height.
    const [low, high] = ofKind(group(scene, "bars"), "rect");
    expect(high!.height / low!.height).toBeCloseTo(35 / 2);
  });

  it("value -1 means could not measure: drawn as its own mark, never as a bar", () => {
    const scene = gazeScene({ samples: [3, -1, 4, -1], medium: "screen", width: 400, height: 100 });
    expect(ofKind(group(scene, "bars"), "rect")).toHaveLength(2);
    const unmeasured = ofKind(group(scene, "unmeasured"), "rect");
    expect(unmeasured).toHaveLength(2);
    expect(new Set(unmeasured.map((r) => r.fill))).toEqual(new Set(["gaze-unmeasured"]));
    expect(textsOf(scene)).toContain("could not measure");
  });

  // Issue #9: "the 666-sample print limit with its notice".
  it("in print, more than 666 samples are not drawn and a notice says the print data is exceeded", () => {
    expect(gazePrintSampleLimit).toBe(666);
    expect(gazeDrawable(samples(666), "print")).toBe(true);
    expect(gazeDrawable(samples(667), "print")).toBe(false);
    expect(gazeDrawable(samples(5000), "screen")).toBe(true);
    const ok = gazeScene({ samples: samples(666), medium: "print", width: 700, height: 60 });
    expect(ofKind(group(ok, "bars"), "rect")).toHaveLength(666);
    const over = gazeScene({ samples: samples(667), medium: "print", width: 700, height: 60 });
    expect(ofKind(over, "rect")).toHaveLength(0);
    const notice = textsOf(over).find((t) => t.includes("print limit"));
    expect(notice).toBe("Gaze chart not printed: 667 samples exceed the print limit of 666. See it on screen.");
  });

  it("on screen the chart widens so 7-px bars never overlap; in print it keeps its width", () => {
    const screen = gazeScene({ samples: samples(200), medium: "screen", width: 600, height: 100 });
    expect(screen.width).toBeGreaterThanOrEqual(200 * 8);
    const bars = ofKind(group(screen, "bars"), "rect");
    for (let i = 1; i < bars.length; i++) expect(bars[i]!.x - bars[i - 1]!.x).toBeGreaterThanOrEqual(7);
    expect(gazeScene({ samples: samples(600), medium: "print", width: 600, height: 60 }).width).toBe(600);
  });

  it("draws the fixation threshold as a dashed line", () => {
    const scene = gazeScene({ samples: samples(10), fixationThreshold: 6, medium: "screen", width: 400, height: 100 });
    expect(ofKind(scene, "line").some((l) => l.stroke === "gaze-threshold" && l.dash !== undefined)).toBe(true);
  });
});
