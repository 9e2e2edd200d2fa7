// The printed result page: core/plots' print scene (core/plots/print-page.ts), the one the CLI's PDF draws too, on an
// A4 sheet in CSS px (1/96 inch, what the browser prints), with times on this browser's clock (the clinic's).

import { ageAtTest, type ResultAnalysis } from "../../core/analytics/result-analysis.ts";
import { clinicTime } from "../../core/model/clinic-time.ts";
import type { Patient } from "../../core/model/patient.ts";
import { printPageScene } from "../../core/plots/print-page.ts";
import type { Scene } from "../../core/plots/scene.ts";
import type { WithResult } from "./result-model.ts";

export const pxPerMm = 96 / 25.4;
export const a4 = { width: 210 * pxPerMm, height: 297 * pxPerMm } as const;

/** The clinic's time zone as the browser knows it. */
const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

export function printPage(m: WithResult, analysis: ResultAnalysis, reference: WithResult | null, patient: Patient, markedUnreliable = false, timeZone = browserTimeZone()): Scene {
  return printPageScene({
    patient,
    age: ageAtTest(patient.birthdate, m.result.takenAt),
    result: m.result,
    analysis,
    markedReliable: !markedUnreliable,
    taken: clinicTime(m.result.takenAt, timeZone),
    reference: reference?.result.thresholds ?? null,
    page: { width: a4.width, height: a4.height, unitsPerMm: pxPerMm },
  });
}

/** The page without the scene's header: the web prints the result page's own tables there (PrintLayout). */
export const withoutHeader = (scene: Scene): Scene => ({
  ...scene,
  nodes: scene.nodes.filter((n) => !(n.kind === "group" && n.role === "print.header")),
});
