import { describe, expect, it } from "vitest";
import { Eye, Pattern } from "../../../core/model/enums.ts";
import { octopusThresholdsScene } from "../../../core/plots/octopus.ts";
import { plotPalette } from "../../../core/plots/palette.ts";
import { message, text, type Scene, type SceneNode } from "../../../core/plots/scene.ts";
import { toSvg } from "../../../core/plots/svg.ts";
import { symbolShapes } from "../../../core/plots/symbols.ts";
import { drawShapes, type Canvas2D } from "../../../web/results/canvas-draw.ts";
import {
  nodeShapes,
  plotFontFamily,
  sceneShapes,
  shapeCount,
  shapeTexts,
  tabularFontFamily,
  textShape,
  type Shape,
} from "../../../web/results/scene-shapes.ts";

// The scene -> canvas mapping of web/results (core/plots/index.ts' recipe) and its drawing on a recorded context.

const one = (node: SceneNode) => nodeShapes([node])[0]!;

describe("scene -> shapes", () => {
  it("rect, circle, line and polyline keep their geometry; colours resolve through the palette", () => {
    expect(
      one({ kind: "rect", x: 1, y: 2, width: 3, height: 4, fill: "plot-ink", stroke: "plot-axis", strokeWidth: 2, dash: [4, 3] }),
    ).toEqual({
      type: "rect",
      x: 1,
      y: 2,
      width: 3,
      height: 4,
      fill: plotPalette["plot-ink"],
      stroke: plotPalette["plot-axis"],
      strokeWidth: 2,
      dash: [4, 3],
    });
    expect(one({ kind: "circle", cx: 5, cy: 6, r: 7, fill: "#123456" })).toEqual({
      type: "circle",
      x: 5,
      y: 6,
      radius: 7,
      fill: "#123456",
    });
    expect(one({ kind: "line", x1: 0, y1: 1, x2: 2, y2: 3, stroke: "plot-axis" })).toEqual({
      type: "line",
      points: [0, 1, 2, 3],
      closed: false,
      stroke: plotPalette["plot-axis"],
      strokeWidth: 1,
    });
    expect(one({ kind: "polyline", points: [0, 0, 4, 0, 4, 4], closed: true, fill: "plot-ink" })).toEqual({
      type: "line",
      points: [0, 0, 4, 0, 4, 4],
      closed: true,
      fill: plotPalette["plot-ink"],
    });
    expect(
      nodeShapes([{ kind: "rect", x: 0, y: 0, width: 1, height: 1, fill: "plot-ink" }], { palette: { "plot-ink": "red" } })[0],
    ).toMatchObject({ fill: "red" });
  });

  it("a probability symbol becomes the primitives both renderers share (symbolShapes)", () => {
    for (const level of [0.005, 0.01, 0.02, 0.05, "normal"] as const) {
      const node = { kind: "symbol", x: 10, y: 10, size: 8, level, fill: "plot-ink" } as const;
      expect(nodeShapes([node])).toHaveLength(symbolShapes(node).length);
    }
  });

  it("a group translates and scales its children and keeps its role as a name", () => {
    const g = one({ kind: "group", x: 3, y: 4, scale: 2, role: "legend", children: [{ kind: "circle", cx: 0, cy: 0, r: 1 }] });
    expect(g).toMatchObject({ type: "group", x: 3, y: 4, scaleX: 2, scaleY: 2, name: "legend" });
    expect(g.type === "group" && g.children).toHaveLength(1);
  });

  it("text: anchored at (x, y), aligned by its anchor, on the alphabetic baseline core/plots gives (text-metrics.ts)", () => {
    const at = (anchor: "start" | "middle" | "end", baseline: "top" | "middle" | "bottom") =>
      textShape(text(20, 30, "12", { size: 10, anchor, baseline }));
    expect(at("start", "top")).toMatchObject({ type: "text", x: 20, y: 30, align: "left", baseline: 8, fontSize: 10 });
    expect(at("middle", "middle")).toMatchObject({ align: "center", baseline: 3.5 });
    expect(at("end", "bottom")).toMatchObject({ align: "right", baseline: -2 });
    expect(textShape(text(0, 0, "5", { tabular: true }))).toMatchObject({ fontFamily: tabularFontFamily });
    expect(textShape(text(0, 0, "Rank", { weight: "bold", rotation: -90 }))).toMatchObject({
      fontFamily: plotFontFamily,
      fontStyle: "bold",
      rotation: -90,
    });
    const translated = textShape(text(0, 0, message("plots.bebie.rank", "Rank")), {
      translate: (m) => (m.id === "plots.bebie.rank" ? "Rang" : undefined),
    });
    expect(translated).toMatchObject({ text: "Rang" });
  });

  it("screen and paper put every text on the same baseline (the SVG print's y)", () => {
    const scene = octopusThresholdsScene({
      pattern: Pattern.P24_2,
      eye: Eye.Left,
      width: 240,
      height: 240,
      thresholds: Array.from({ length: 54 }, (_, i) => i % 35),
    });
    const svgBaselines = [...toSvg(scene).matchAll(/<text x="[^"]+" y="([^"]+)"/g)].map((m) => Number(m[1]));
    const canvasBaselines: number[] = [];
    const walk = (shapes: readonly Shape[], dy: number) => {
      for (const s of shapes) {
        if (s.type === "text") canvasBaselines.push(Math.round((dy + s.y + s.baseline) * 100) / 100);
        if (s.type === "group") walk(s.children, dy + s.y);
      }
    };
    walk(sceneShapes(scene), 0);
    expect(canvasBaselines).toEqual(svgBaselines);
  });

  it("the background comes first at the scene's size; shapeTexts and shapeCount read a whole scene", () => {
    const scene: Scene = {
      plot: "t",
      width: 50,
      height: 40,
      background: "plot-background",
      nodes: [
        text(1, 1, "a"),
        { kind: "group", x: 0, y: 0, children: [text(2, 2, "b"), { kind: "rect", x: 0, y: 0, width: 1, height: 1 }] },
      ],
    };
    const shapes = sceneShapes(scene);
    expect(shapes[0]).toEqual({ type: "rect", x: 0, y: 0, width: 50, height: 40, fill: plotPalette["plot-background"] });
    expect(shapeTexts(shapes)).toEqual(["a", "b"]);
    expect(shapeCount(shapes)).toBe(4);
  });
});

/** A 2D context that records what is drawn. */
function recorder() {
  const calls: string[] = [];
  const state: Record<string, unknown> = {};
  const ctx = new Proxy(state, {
    get: (_, key: string) =>
      key in state
        ? state[key]
        : (...args: unknown[]) => calls.push(`${key}(${args.map((a) => (Array.isArray(a) ? `[${a}]` : String(a))).join(",")})`),
    set: (_, key: string, value) => {
      state[key] = value;
      calls.push(`${key}=${value}`);
      return true;
    },
  }) as unknown as Canvas2D;
  return { ctx, calls };
}

describe("shapes -> canvas", () => {
  it("fills then strokes a rect, with its dash", () => {
    const { ctx, calls } = recorder();
    drawShapes(ctx, [{ type: "rect", x: 1, y: 2, width: 3, height: 4, fill: "#fff", stroke: "#000", strokeWidth: 2, dash: [4, 3] }]);
    expect(calls).toEqual([
      "lineJoin=round",
      "beginPath()",
      "rect(1,2,3,4)",
      "fillStyle=#fff",
      "fill()",
      "strokeStyle=#000",
      "lineWidth=2",
      "setLineDash([4,3])",
      "stroke()",
    ]);
  });

  it("never fills an open line; closes and fills a closed one", () => {
    const { ctx, calls } = recorder();
    drawShapes(ctx, [{ type: "line", points: [0, 0, 5, 5, 9, 0], closed: false, fill: "#f00", stroke: "#000", strokeWidth: 1 }]);
    expect(calls).not.toContain("fill()");
    expect(calls).toContain("lineTo(9,0)");
    const closed = recorder();
    drawShapes(closed.ctx, [{ type: "line", points: [0, 0, 5, 5, 9, 0], closed: true, fill: "#f00" }]);
    expect(closed.calls).toEqual([
      "lineJoin=round",
      "beginPath()",
      "moveTo(0,0)",
      "lineTo(5,5)",
      "lineTo(9,0)",
      "closePath()",
      "fillStyle=#f00",
      "fill()",
    ]);
  });

  it("draws text at its anchor, rotated about it, on its baseline; a group translates and scales its children", () => {
    const { ctx, calls } = recorder();
    const label = textShape(text(20, 30, "Rank", { size: 10, anchor: "end", baseline: "top", rotation: -90 }));
    drawShapes(ctx, [{ type: "group", x: 5, y: 6, scaleX: 2, scaleY: 2, children: [label] }]);
    expect(calls).toEqual([
      "lineJoin=round",
      "save()",
      "translate(5,6)",
      "scale(2,2)",
      "lineJoin=round",
      "save()",
      "translate(20,30)",
      `rotate(${(-90 * Math.PI) / 180})`,
      `font=normal 10px ${plotFontFamily}`,
      "textAlign=right",
      "textBaseline=alphabetic",
      `fillStyle=${plotPalette["plot-ink"]}`,
      "fillText(Rank,0,8)",
      "restore()",
      "restore()",
    ]);
  });

  it("sets a text wider than its maxWidth smaller to fit, whole (a long translation is never cut at the canvas edge)", () => {
    // A measure of 10 px per character at 13 px, proportional to the font size.
    const size = () => Number(/(\d+(?:\.\d+)?)px/.exec(String(state.font))![1]);
    const state: Record<string, unknown> = {};
    const drawn: Array<{ text: string; width: number }> = [];
    const ctx = new Proxy(state, {
      get: (_, key: string) =>
        key in state
          ? state[key]
          : key === "measureText"
            ? (t: string) => ({ width: (t.length * 10 * size()) / 13 })
            : key === "fillText"
              ? (t: string, _x: number, _y: number, max?: number) =>
                  drawn.push({ text: t, width: Math.min(max ?? Infinity, (t.length * 10 * size()) / 13) })
              : () => undefined,
      set: (_, key: string, value) => {
        state[key] = value;
        return true;
      },
    }) as unknown as Canvas2D;
    const title = "Wahrscheinlichkeit der Abweichung"; // 33 characters: 330 px at 13 px
    drawShapes(ctx, [textShape(text(120, 4, title, { size: 13, weight: "bold", baseline: "top", maxWidth: 232 }))]);
    expect(drawn[0]!.text).toBe(title);
    expect(drawn[0]!.width).toBeLessThanOrEqual(232);
    expect(size()).toBe(9.1);
    // Too long even at the smallest size (8 px): the canvas narrows it to the width.
    drawShapes(ctx, [textShape(text(120, 4, title + title, { size: 13, maxWidth: 232 }))]);
    expect(size()).toBe(8);
    expect(drawn[1]!.width).toBe(232);
    drawShapes(ctx, [textShape(text(120, 4, "Gaze", { size: 13, maxWidth: 232 }))]);
    expect(size()).toBe(13);
  });
});
