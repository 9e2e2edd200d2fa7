import { describe, expect, it } from "vitest";
import { toSvg, escapeXml } from "../../core/plots/svg.ts";
import type { Scene } from "../../core/plots/scene.ts";
import { message } from "../../core/plots/scene.ts";
import { walk } from "../../core/plots/scene.ts";
import { symbolShapes } from "../../core/plots/symbols.ts";
import { assertWellFormedXml } from "./xml.ts";
import { sampleScenes } from "./samples.ts";

describe("SVG writer", () => {
  const scenes = Object.entries(sampleScenes());

  it.each(scenes)("%s serialises to well-formed SVG with one element per drawn node", (_, scene) => {
    const svg = toSvg(scene);
    const { root, elements } = assertWellFormedXml(svg);
    expect(root).toBe("svg");
    expect(svg).toContain(`viewBox="0 0 ${scene.width} ${scene.height}"`);
    // Every node becomes one element (symbols a <g> plus their squares), plus <svg>, <title> and the background.
    const drawn = walk(scene.nodes).reduce((n, node) => n + 1 + (node.kind === "symbol" ? symbolShapes(node).length : 0), 0);
    expect(elements).toBe(drawn + 1 + (scene.title ? 1 : 0) + (scene.background ? 1 : 0));
  });

  it("covers every plot kind", () => {
    const plots = new Set(scenes.map(([, s]) => s.plot));
    for (const p of [
      "octopus.thresholds",
      "octopus.grayscale",
      "octopus.numerical",
      "octopus.loss",
      "octopus.difference",
      "humphrey.thresholds",
      "humphrey.totalDeviation",
      "humphrey.totalDeviationProbability",
      "humphrey.patternDeviation",
      "humphrey.patternDeviationProbability",
      "bebie",
      "progression",
      "gaze",
      "esterman",
      "live.threshold",
      "live.supra",
      "amsler",
      "legend.thresholdBands",
      "legend.totalDeviation",
      "legend.value",
    ])
      expect(plots).toContain(p);
  });

  it("escapes text and translates messages", () => {
    const scene: Scene = {
      plot: "t",
      width: 10,
      height: 10,
      title: message("x.title", "A & B"),
      nodes: [
        {
          kind: "text",
          x: 1,
          y: 1,
          text: message("x.t", "<{n}> 'q'", { n: 3 }),
          size: 10,
          anchor: "start",
          baseline: "top",
          weight: "normal",
          tabular: true,
          fill: "plot-ink",
        },
      ],
    };
    const svg = toSvg(scene);
    assertWellFormedXml(svg);
    expect(svg).toContain("&lt;3&gt; &apos;q&apos;");
    expect(svg).toContain("<title>A &amp; B</title>");
    expect(svg).toContain("tabular-nums");
    expect(toSvg(scene, { translate: (m) => (m.id === "x.t" ? `übersetzt ${m.values?.n}` : undefined) })).toContain(">übersetzt 3</text>");
    expect(escapeXml(`"'&<>`)).toBe("&quot;&apos;&amp;&lt;&gt;");
  });

  it("resolves colour tokens through the palette and passes hex through", () => {
    const scene: Scene = {
      plot: "t",
      width: 10,
      height: 10,
      nodes: [
        { kind: "rect", x: 0, y: 0, width: 1, height: 1, fill: "live-answered" },
        { kind: "circle", cx: 1, cy: 1, r: 1, fill: "#123456" },
      ],
    };
    const svg = toSvg(scene, { palette: { "live-answered": "#00ff00" } });
    expect(svg).toContain('fill="#00ff00"');
    expect(svg).toContain('fill="#123456"');
  });
});
