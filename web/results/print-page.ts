// The printed result page: core/plots' print scene (core/plots/print-page.ts), the one the CLI's PDF draws too, on an
// A4 sheet in CSS px (1/96 inch, what the browser prints), with times on this browser's clock (the clinic's).

import type { IntegratedFieldOutcome } from "../../core/analytics/binocular.ts";
import { ageAtTest, type ResultAnalysis } from "../../core/analytics/result-analysis.ts";
import { clinicTime } from "../../core/model/clinic-time.ts";
import type { Patient } from "../../core/model/patient.ts";
import type { PrintProgression } from "../../core/plots/print-header.ts";
import { printPageScene } from "../../core/plots/print-page.ts";
import type { Scene } from "../../core/plots/scene.ts";
import type { WithResult } from "./result-model.ts";

export const pxPerMm = 96 / 25.4;
export const a4 = { width: 210 * pxPerMm, height: 297 * pxPerMm } as const;

/** The clinic's time zone as the browser knows it. */
export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

export function printPage(
  m: WithResult,
  analysis: ResultAnalysis,
  reference: WithResult | null,
  patient: Patient,
  options: {
    markedUnreliable?: boolean;
    progression?: PrintProgression | null;
    binocular?: IntegratedFieldOutcome | null;
    timeZone?: string;
  } = {},
): Scene {
  const timeZone = options.timeZone ?? browserTimeZone();
  return printPageScene({
    patient,
    age: ageAtTest(patient.birthdate, m.result.takenAt),
    result: m.result,
    analysis,
    markedReliable: !options.markedUnreliable,
    taken: clinicTime(m.result.takenAt, timeZone),
    reference: reference?.result.thresholds ?? null,
    ...(options.progression !== undefined ? { progression: options.progression } : {}),
    ...(options.binocular ? { binocular: options.binocular } : {}),
    page: { width: a4.width, height: a4.height, unitsPerMm: pxPerMm },
  });
}

/**
 * Scales each SVG text that outgrows its room (toSvg's data-max-width) down about its anchor point, as the PDF does
 * (cli/export/pdf/scene-to-pdfkit.ts): a long name or translation stays whole and out of the next column. Widths are
 * measured on a canvas in the SVG's font: the print layout is not rendered (display: none) until the browser prints.
 */
export function fitSvgTexts(root: ParentNode): void {
  const ctx = typeof document === "undefined" ? null : document.createElement("canvas").getContext?.("2d");
  if (!ctx) return; // not a layout engine (component tests in happy-dom)
  for (const el of root.querySelectorAll<SVGTextElement>("text[data-max-width]")) {
    // The scene's own transform (a rotation), kept aside so a second pass over the same text starts from it.
    const own = el.getAttribute("data-transform") ?? el.getAttribute("transform") ?? "";
    el.setAttribute("data-transform", own);
    if (own) el.setAttribute("transform", own);
    else el.removeAttribute("transform");
    const family = el.closest("svg")?.getAttribute("font-family") ?? "sans-serif";
    ctx.font = `${el.getAttribute("font-weight") ?? "normal"} ${el.getAttribute("font-size")}px ${family}`;
    const max = Number(el.dataset.maxWidth),
      width = ctx.measureText(el.textContent ?? "").width;
    if (!(width > max)) continue;
    const x = Number(el.dataset.x),
      y = Number(el.dataset.y),
      f = max / width;
    el.setAttribute("transform", `${own} translate(${x} ${y}) scale(${f}) translate(${-x} ${-y})`.trim());
  }
}
