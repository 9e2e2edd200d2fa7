import { useMemo } from "react";
import type { ResultAnalysis } from "../../core/analytics/result-analysis.ts";
import type { Patient } from "../../core/model/patient.ts";
import { toSvg } from "../../core/plots/svg.ts";
import { printPage } from "./print-page.ts";
import type { WithResult } from "./result-model.ts";
import { usePlotTranslate } from "./SceneView.tsx";

/**
 * The hidden print layout: one A4 page, core/plots' print scene (header, plots with legends, gaze; print-page.ts) as
 * SVG, so the paper gets vector lines and real text at any printer resolution and shows what the CLI's PDF shows.
 */
export function PrintLayout({ measurement: m, analysis, reference, patient, markedUnreliable = false }: {
  measurement: WithResult; analysis: ResultAnalysis; reference: WithResult | null; patient: Patient; markedUnreliable?: boolean;
}) {
  const translate = usePlotTranslate();
  const svg = useMemo(() => toSvg(printPage(m, analysis, reference, patient, markedUnreliable), { translate }), [m, analysis, reference, patient, markedUnreliable, translate]);
  return (
    <div className="print-page" data-testid="print-page"
      // Our own scene serialised by core/plots (texts escaped there), not user HTML.
      dangerouslySetInnerHTML={{ __html: svg }} />
  );
}
