// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, render } from "@testing-library/react";

vi.mock("@lingui/core/macro", () => import("./lingui-shim.tsx"));
vi.mock("@lingui/react/macro", () => import("./lingui-shim.tsx"));

import { I18nProvider } from "@lingui/react";
import { i18n } from "@lingui/core";
import { Eye, Pattern, Strategy } from "../../../core/model/enums.ts";
import { walk, type Scene, type SceneNode } from "../../../core/plots/scene.ts";
import { symbolShapes } from "../../../core/plots/symbols.ts";
import { exportContext } from "../../../cli/export/context.ts";
import { reportScene } from "../../../cli/export/pdf/report.ts";
import { exportRecord } from "../../../cli/export/record.ts";
import { PrintLayout } from "../../../web/results/PrintLayout.tsx";
import { progressionTracker } from "../../../cli/export/progression.ts";
import type { WithResult } from "../../../web/results/result-model.ts";
import type { ResultAnalysis } from "../../../core/analytics/result-analysis.ts";
import { resolveText } from "../../../core/plots/message.ts";
import { engine, fixture, patient } from "./fixtures.tsx";
import type { Measurement } from "../../../core/model/measurement.ts";
import { fromMeasurement } from "../../../core/model/perimetry-test.ts";
import { printProgression, type PrintProgression } from "../../../core/plots/print-header.ts";
import { previousOfSameKind, seriesResults } from "../../../web/results/result-model.ts";

// Issue 19: "the web print and the CLI PDF come from the same scene (a test compares their shapes)". The web's print
// layout is rendered (happy-dom) and its SVG's shapes counted by kind; the CLI's page scene for the same result, which
// the PDF draws node for node (cli/export/pdf/scene-to-pdfkit.ts), is counted the same way. The texts of both are
// compared word for word (the web's in English here, as the CLI's), header included: the patient, the test's
// parameters, the indices with their conventions and p-values, reliability, the normative database and the eye's
// progression analysis, which the CLI computes from the patient's exported series as the page does from its own.

afterEach(() => cleanup());

/** What toSvg writes per scene node (a symbol expands into its primitives; a group is a <g>). */
function sceneShapes(scene: Scene): Record<string, number> {
  const out: Record<string, number> = { rect: scene.background ? 1 : 0, circle: 0, line: 0, polyline: 0, text: 0, g: 0 };
  const count = (n: SceneNode) => {
    if (n.kind === "symbol") return void (out.g!++, symbolShapes(n).forEach(count)); // toSvg groups a symbol's shapes
    if (n.kind === "group") return void out.g!++;
    out[n.kind] = (out[n.kind] ?? 0) + 1;
  };
  walk(scene.nodes).forEach(count);
  return out;
}

function svgShapes(svg: SVGSVGElement): Record<string, number> {
  const n = (sel: string) => svg.querySelectorAll(sel).length;
  return { rect: n("rect"), circle: n("circle"), line: n("line"), polyline: n("polyline") + n("polygon"), text: n("text"), g: n("g") };
}

function renderPrint(m: Measurement, analysis: ResultAnalysis, progression: PrintProgression, reference: WithResult | null) {
  render(
    <I18nProvider i18n={i18n}>
      <PrintLayout
        measurement={fromMeasurement(m) as WithResult}
        analysis={analysis}
        reference={reference}
        patient={patient}
        progression={progression}
      />
    </I18nProvider>,
  );
  return document.querySelector("[data-testid=print-plots] svg") as SVGSVGElement;
}

describe("the printed page: one scene for the web and the CLI", () => {
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  for (const [name, series] of [
    [
      "24-2 Dynamic",
      [
        fixture("r1", Eye.Right, "2024-02-03T09:00:00.000Z"),
        fixture("r2", Eye.Right, "2024-08-03T09:00:00.000Z"),
        fixture("r3", Eye.Right, "2025-02-03T09:00:00.000Z"),
      ],
    ],
    [
      "G Normal",
      [
        engine("rg0", Eye.Left, "2025-02-01T10:00:00.000Z", Pattern.G, Strategy.Normal),
        engine("rg", Eye.Left, "2025-08-01T10:00:00.000Z", Pattern.G, Strategy.Normal),
      ],
    ],
  ] as const) {
    it(`${name}: the web's SVG has the shapes and the texts of the CLI's page scene, header and progression included`, () => {
      const m = series.at(-1)!;
      // The CLI follows the exported series; the page reads the same results (result-model.ts seriesResults).
      const tracker = progressionTracker(timeZone);
      const records = series.map((s) => exportRecord(patient, s)!);
      const cliProgression = records.map((r) => tracker.of(r)).at(-1)!;
      const webProgression = printProgression(
        seriesResults(
          series.map((s) => fromMeasurement(s) as WithResult),
          new Set(),
          patient.birthdate,
        ),
        m.result!,
        null,
        timeZone,
      );
      expect(webProgression).toEqual(cliProgression);
      const record = records.at(-1)!;
      // The reference of the "Difference (dB)" plot: the web's page takes the previous result of the same eye and
      // pattern from the patient's list (result-model.ts previousOfSameKind), the CLI from the exported series.
      const webReference = previousOfSameKind(
        series.map((s) => fromMeasurement(s) as WithResult),
        fromMeasurement(m) as WithResult,
      );
      const cliReference = tracker.referenceOf(record);
      expect(webReference?.id).toBe(series.at(-2)!.id);
      expect(cliReference?.test.id).toBe(series.at(-2)!.id);
      const svg = renderPrint(m, record.analysis(), webProgression, webReference);
      const cli = reportScene(record, exportContext({ id: "o", name: "Clinic" }, { timeZone }), cliProgression, cliReference);
      expect(svgShapes(svg)).toEqual(sceneShapes(cli));
      const webTexts = [...svg.querySelectorAll("text")].map((t) => t.textContent);
      const cliTexts = walk(cli.nodes).flatMap((n) => (n.kind === "text" ? [resolveText(n.text)] : []));
      expect(webTexts).toEqual(cliTexts);
      // The header is the scene's: the name, Humphrey's MD with its convention, and the progression line.
      expect(webTexts).toContain(patient.name);
      // Both pages have the difference plot, with the same numbers (compared above, text for text).
      expect(webTexts).toContain("Difference (dB)");
      expect(webTexts).toContain("Humphrey: MD negative = loss");
      expect(webTexts).toContain("Progression analysis");
      const line = webTexts[webTexts.indexOf("Progression analysis") + 1]!;
      expect(line).toMatch(
        series.length >= 3
          ? /^(No|Possible|Likely) progression \(baseline \d{4}-\d\d-\d\d and \d{4}-\d\d-\d\d\) · /
          : /^No progression analysis: it needs at least 3 results/,
      );
    });
  }
});
