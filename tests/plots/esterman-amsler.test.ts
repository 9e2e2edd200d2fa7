import { describe, expect, it } from "vitest";
import { getPattern } from "../../core/analytics/patterns.ts";
import { Pattern } from "../../core/model/enums.ts";
import { amslerScene, amslerSquares, amslerVerdict } from "../../core/plots/amsler.ts";
import { estermanScene, estermanSeen } from "../../core/plots/esterman.ts";
import { resolveText } from "../../core/plots/message.ts";
import { group, ofKind, textsOf } from "./helpers.ts";

describe("Esterman plot", () => {
  const n = getPattern(Pattern.Esterman).points.length;

  it("has 120 points: seen as open circles, not seen as filled squares", () => {
    expect(n).toBe(120);
    const thresholds = Array.from({ length: n }, (_, i) => (i % 4 === 0 ? 0 : 10));
    const scene = estermanScene({ thresholds, width: 420, height: 340 });
    const locations = group(scene, "locations");
    expect(ofKind(locations, "circle")).toHaveLength(90);
    expect(ofKind(locations, "rect")).toHaveLength(30);
    // Accounts seed §9: "Esterman score: rounded percentage of seen points (threshold above 0)."
    expect(textsOf(group(scene, "legend"))).toEqual(["Esterman score: 75 %", "90 of 120 seen", "seen", "not seen"]);
  });

  it("seen means a threshold above 0; a stored score is shown as stored", () => {
    expect(estermanSeen([0, 10, -1, null])).toEqual([false, true, false, null]);
    const scene = estermanScene({ thresholds: Array.from({ length: n }, () => 10), score: 97, width: 420, height: 340 });
    expect(textsOf(group(scene, "legend"))[0]).toBe("Esterman score: 97 %");
  });
});

// Accounts seed §3: "Amsler result: answer (healthy, missing, not sure, wavy)"; issue #9: "'Normal' for healthy,
// 'Abnormal' plus the kind".
describe("Amsler results: 'Normal' for healthy, 'Abnormal' plus the kind", () => {
  it.each([
    ["healthy", "Normal", true],
    ["wavy", "Abnormal: wavy lines", false],
    ["missing", "Abnormal: missing areas", false],
    ["not-sure", "Abnormal: not sure", false],
  ] as const)("%s reads %s", (answer, words, normal) => {
    const verdict = amslerVerdict(answer);
    expect(resolveText(verdict.text)).toBe(words);
    expect(verdict.normal).toBe(normal);
    const scene = amslerScene({ answer, width: 240, height: 290 });
    expect(textsOf(scene)).toContain(words);
  });

  it("draws the 20 x 20 grid with its fixation dot", () => {
    const grid = group(amslerScene({ answer: "healthy", width: 240, height: 290 }), "grid");
    expect(ofKind(grid, "line")).toHaveLength(2 * (amslerSquares - 1));
    expect(ofKind(grid, "circle")).toHaveLength(1);
  });

  it("the kind is translated with the verdict", () => {
    const translate = (m: { id: string; values?: Record<string, unknown> }) =>
      m.id === "plots.amsler.kind.wavy"
        ? "Wellenlinien"
        : m.id === "plots.amsler.abnormal"
          ? `Auffällig: ${String(m.values?.kind)}`
          : undefined;
    expect(resolveText(amslerVerdict("wavy").text, translate)).toBe("Auffällig: Wellenlinien");
  });
});
