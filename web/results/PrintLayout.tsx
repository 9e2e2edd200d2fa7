import { useMemo } from "react";
import { useLingui } from "@lingui/react/macro";
import type { ResultAnalysis } from "../../core/analytics/result-analysis.ts";
import { ageAtTest } from "../../core/analytics/result-analysis.ts";
import { patternLabel } from "../../core/model/enums.ts";
import type { Patient } from "../../core/model/patient.ts";
import { toSvg } from "../../core/plots/svg.ts";
import { eyeNames, strategyNames } from "../i18n/names.ts";
import { useDateFormat } from "../i18n/format.ts";
import { IndicesTable } from "./IndicesTable.tsx";
import { printPage } from "./print-page.ts";
import type { WithResult } from "./result-model.ts";
import { usePlotTranslate } from "./SceneView.tsx";

/**
 * The hidden print layout: header (20 %), plots (73 %) and gaze (7 %) inside 5 mm margins on A4 (print-page.ts).
 * The plot scenes are the screen's, written as SVG so the paper gets vector lines and real text at any printer
 * resolution (a canvas would print as a bitmap at screen resolution).
 */
export function PrintLayout({ measurement: m, analysis, reference, patient }: {
  measurement: WithResult; analysis: ResultAnalysis; reference: WithResult | null; patient: Patient;
}) {
  const { t, i18n } = useLingui();
  const format = useDateFormat();
  const translate = usePlotTranslate();
  const page = useMemo(() => printPage(m, analysis, reference), [m, analysis, reference]);
  const svg = useMemo(() => ({
    plots: toSvg(page.plots, { translate }),
    gaze: page.gaze ? toSvg(page.gaze, { translate }) : null,
  }), [page, translate]);
  const r = m.result;
  const box = (b: { x: number; y: number; width: number; height: number }) => ({ left: b.x, top: b.y, width: b.width, height: b.height });
  return (
    <div className="print-page" data-testid="print-page">
      <header className="print-header" style={box(page.regions.header)}>
        <div className="print-identity">
          <h1>{patient.name}</h1>
          <dl>
            <dt>{t`Patient ID`}</dt><dd>{patient.uniqueId}</dd>
            <dt>{t`Birthdate`}</dt><dd className="num">{format.date(patient.birthdate)} ({t`${ageAtTest(patient.birthdate, r.takenAt)} years at the test`})</dd>
            <dt>{t`Test`}</dt><dd>{i18n._(eyeNames[r.eye])} · {patternLabel[r.pattern]} · {i18n._(strategyNames[r.strategy])}</dd>
            <dt>{t`Taken`}</dt><dd className="num">{format.dateTime(r.takenAt)}</dd>
          </dl>
        </div>
        <IndicesTable result={r} analysis={analysis} />
      </header>
      <div className="print-plots" style={box(page.regions.plots)} data-testid="print-plots"
        // Our own scene serialised by core/plots (texts escaped there), not user HTML.
        dangerouslySetInnerHTML={{ __html: svg.plots }} />
      <div className="print-gaze" style={box(page.regions.gaze)} data-testid="print-gaze"
        {...(svg.gaze ? { dangerouslySetInnerHTML: { __html: svg.gaze } } : {})}>
        {svg.gaze ? undefined : <p className="muted">{t`Gaze was not tracked in this test.`}</p>}
      </div>
    </div>
  );
}
