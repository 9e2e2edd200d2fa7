import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { getPattern, patternsWithGeometry } from "../../core/analytics/patterns.ts";
import { Eye, Pattern } from "../../core/model/enums.ts";
import { bebieScene } from "../../core/plots/bebie.ts";
import { estermanScene } from "../../core/plots/esterman.ts";
import { gazeScene } from "../../core/plots/gaze.ts";
import { grayscaleScene } from "../../core/plots/grayscale.ts";
import { humphreyDeviationSymbolsScene, humphreyDeviationValuesScene, humphreyThresholdsScene } from "../../core/plots/humphrey.ts";
import { liveScene } from "../../core/plots/live.ts";
import { octopusDifferenceScene, octopusLossScene, octopusThresholdsScene } from "../../core/plots/octopus.ts";
import type { Scene, SceneNode } from "../../core/plots/scene.ts";
import { walk } from "../../core/plots/scene.ts";
import { toSvg } from "../../core/plots/svg.ts";
import { toProbabilityLevel } from "../../core/plots/symbols.ts";
import { assertWellFormedXml } from "./xml.ts";

const numbersOf = (n: SceneNode): number[] => {
  switch (n.kind) {
    case "rect":
      return [n.x, n.y, n.width, n.height];
    case "circle":
      return [n.cx, n.cy, n.r];
    case "line":
      return [n.x1, n.y1, n.x2, n.y2];
    case "polyline":
      return [...n.points];
    case "text":
      return [n.x, n.y, n.size];
    case "symbol":
      return [n.x, n.y, n.size];
    case "group":
      return [n.x, n.y, n.scale ?? 1];
  }
};

function assertSound(scene: Scene): void {
  for (const n of walk(scene.nodes)) for (const v of numbersOf(n)) expect(Number.isFinite(v), `${scene.plot} ${n.kind}`).toBe(true);
  assertWellFormedXml(toSvg(scene));
}

const fieldPatterns = patternsWithGeometry.filter((p) => p !== Pattern.Esterman);
const value = fc.option(fc.double({ min: -5, max: 45, noNaN: true }), { nil: null, freq: 5 });

describe("any field data gives a sound scene (finite coordinates, well-formed SVG)", () => {
  it("field plots for every pattern and eye, with blanks", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...fieldPatterns),
        fc.constantFrom(Eye.Right, Eye.Left),
        fc.integer({ min: 120, max: 600 }),
        fc.infiniteStream(value),
        (pattern, eye, size, values) => {
          const n = getPattern(pattern).points.length;
          const v = Array.from({ length: n }, () => values.next().value as number | null);
          const box = { pattern, eye, width: size, height: Math.round(size * 0.9) };
          for (const scene of [
            octopusThresholdsScene({ ...box, thresholds: v }),
            grayscaleScene({ ...box, thresholds: v }),
            octopusLossScene({ ...box, defects: v }),
            octopusDifferenceScene({ ...box, current: v, reference: [...v].reverse() }),
            humphreyThresholdsScene({ ...box, thresholds: v }),
            humphreyDeviationValuesScene({ ...box, kind: "total", values: v }),
            humphreyDeviationSymbolsScene({
              ...box,
              kind: "pattern",
              levels: v.map((x) => (x === null ? null : toProbabilityLevel(x / 400))),
            }),
            bebieScene({ defects: v, width: size, height: size }),
            liveScene({
              ...box,
              variant: "threshold",
              thresholds: v.flatMap((x, index) => (x === null ? [] : [{ index, dBValue: x, answerTime: x > 20 ? 300 : null }])),
              lastUpdatedIndex: 0,
            }),
          ])
            assertSound(scene);
        },
      ),
      { numRuns: 15 },
    );
  });

  it("empty data: all blanks, no gaze samples, nothing seen", () => {
    const blanks = getPattern(Pattern.P24_2).points.map(() => null);
    const box = { pattern: Pattern.P24_2, eye: Eye.Right, width: 300, height: 300 };
    assertSound(grayscaleScene({ ...box, thresholds: blanks }));
    assertSound(bebieScene({ defects: blanks, width: 300, height: 200 }));
    assertSound(gazeScene({ samples: [], medium: "screen", width: 300, height: 100 }));
    assertSound(gazeScene({ samples: [-1, -1], medium: "print", width: 300, height: 60 }));
    assertSound(estermanScene({ thresholds: getPattern(Pattern.Esterman).points.map(() => null), width: 300, height: 260 }));
  });
});
