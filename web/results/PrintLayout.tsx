import { useLayoutEffect, useMemo, useRef } from "react";
import type { IntegratedFieldOutcome } from "../../core/analytics/binocular.ts";
import type { ResultAnalysis } from "../../core/analytics/result-analysis.ts";
import type { Patient } from "../../core/model/patient.ts";
import { toSvg } from "../../core/plots/svg.ts";
import type { PrintProgression } from "../../core/plots/print-header.ts";
import { fitSvgTexts, printPage } from "./print-page.ts";
import type { WithResult } from "./result-model.ts";
import { usePlotTranslate } from "./SceneView.tsx";

/**
 * The hidden print layout on A4: core/plots' print scene (core/plots/print-page.ts), the very page the CLI writes as
 * PDF, header included (patient, test parameters, indices with their conventions and p-values, reliability, normative
 * database, the eye's progression analysis), drawn as SVG in the interface language, so the paper gets vector lines
 * and real text at any printer resolution.
 */
export function PrintLayout({
  measurement: m,
  analysis,
  reference,
  patient,
  markedUnreliable = false,
  progression,
  binocular = null,
}: {
  measurement: WithResult;
  analysis: ResultAnalysis;
  reference: WithResult | null;
  patient: Patient;
  markedUnreliable?: boolean;
  /** This eye's progression analysis on this pattern (ProgressionAnalysis.tsx), when the page has one. */
  progression?: PrintProgression | null;
  /** The visit's binocular integrated field (binocular-visit.ts): printed when it applies. */
  binocular?: IntegratedFieldOutcome | null;
}) {
  const translate = usePlotTranslate();
  const body = useRef<HTMLDivElement>(null);
  const svg = useMemo(
    () => toSvg(printPage(m, analysis, reference, patient, { markedUnreliable, progression, binocular }), { translate }),
    [m, analysis, reference, patient, markedUnreliable, progression, binocular, translate],
  );
  // Texts the scene gave a maxWidth (names, translations) are scaled down once the browser has measured them.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the texts to fit are new whenever the SVG is
  useLayoutEffect(() => {
    if (body.current) fitSvgTexts(body.current);
  }, [svg]);
  return (
    <div className="print-page" data-testid="print-page">
      <div
        className="print-body"
        data-testid="print-plots"
        ref={body}
        // biome-ignore lint/security/noDangerouslySetInnerHtml: our own scene serialised by core/plots (texts escaped there), not user HTML
        dangerouslySetInnerHTML={{ __html: svg }}
      />
    </div>
  );
}
