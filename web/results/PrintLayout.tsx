import { useMemo } from "react";
import { useLingui } from "@lingui/react/macro";
import type { ResultAnalysis } from "../../core/analytics/result-analysis.ts";
import { ageAtTest } from "../../core/analytics/result-analysis.ts";
import { patternLabel } from "../../core/model/enums.ts";
import type { Patient } from "../../core/model/patient.ts";
import { printRegions } from "../../core/plots/page.ts";
import { toSvg } from "../../core/plots/svg.ts";
import { eyeNames, strategyNames } from "../i18n/names.ts";
import { useDateFormat } from "../i18n/format.ts";
import { IndicesTable } from "./IndicesTable.tsx";
import { a4, printPage, pxPerMm, withoutHeader } from "./print-page.ts";
import type { WithResult } from "./result-model.ts";
import { usePlotTranslate } from "./SceneView.tsx";
import { ProgressionSummary } from "./ProgressionAnalysis.tsx";
import type { EyeProgression } from "../../core/analytics/progression/eye-progression.ts";

/**
 * The hidden print layout on A4: core/plots' print scene (print-page.ts), the page the CLI's PDF draws, as SVG for
 * the plots with their legends and the gaze chart, so the paper gets vector lines and real text at any printer
 * resolution. The header is the result page's own tables (identity, parameters, conventions, p-values: IndicesTable),
 * where the PDF draws the scene's header.
 */
export function PrintLayout({ measurement: m, analysis, reference, patient, markedUnreliable = false, progression }: {
  measurement: WithResult; analysis: ResultAnalysis; reference: WithResult | null; patient: Patient; markedUnreliable?: boolean;
  /** This eye's progression analysis on this pattern (ProgressionAnalysis.tsx), when the page has one. */
  progression?: EyeProgression | null;
}) {
  const { t, i18n } = useLingui();
  const format = useDateFormat();
  const translate = usePlotTranslate();
  const svg = useMemo(
    () => toSvg(withoutHeader(printPage(m, analysis, reference, patient, markedUnreliable)), { translate }),
    [m, analysis, reference, patient, markedUnreliable, translate],
  );
  const header = printRegions(a4.width, a4.height, pxPerMm).header;
  const r = m.result;
  return (
    <div className="print-page" data-testid="print-page">
      <div className="print-body" data-testid="print-plots"
        // Our own scene serialised by core/plots (texts escaped there), not user HTML.
        dangerouslySetInnerHTML={{ __html: svg }} />
      <header className="print-header" style={{ left: header.x, top: header.y, width: header.width, height: header.height }}>
        <div className="print-identity">
          <h1>{patient.name}</h1>
          <dl>
            <dt>{t`Patient ID`}</dt><dd>{patient.uniqueId}</dd>
            <dt>{t`Birthdate`}</dt><dd className="num">{format.date(patient.birthdate)} ({t`${ageAtTest(patient.birthdate, r.takenAt)} years at the test`})</dd>
            <dt>{t`Test`}</dt><dd>{i18n._(eyeNames[r.eye])} · {patternLabel[r.pattern]} · {i18n._(strategyNames[r.strategy])}</dd>
            <dt>{t`Taken`}</dt><dd className="num">{format.dateTime(r.takenAt)}</dd>
          </dl>
        </div>
        <IndicesTable result={r} analysis={analysis} footer={progression?.events && (
          <p className="print-progression" data-testid="print-progression"><strong>{t`Progression analysis`}:</strong> <ProgressionSummary analysis={progression} /></p>
        )} />
      </header>
    </div>
  );
}
