import { useCallback, useLayoutEffect, useMemo, useState } from "react";
import { useLingui } from "@lingui/react/macro";
import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import type { ResultAnalysis } from "../../core/analytics/result-analysis.ts";
import { baselineToggleState, type BaselineToggleState } from "../../core/analytics/progression/baseline.ts";
import { patternLabel } from "../../core/model/enums.ts";
import { resultPlots, type ResultPlots } from "../../core/plots/result-plots.ts";
import { isScreening } from "../../core/plots/screening.ts";
import { thresholdColourLegend, totalDeviationLegend, valueLegend } from "../../core/plots/legends.ts";
import type { Scene } from "../../core/plots/scene.ts";
import { eyeNames } from "../i18n/names.ts";
import { useDateFormat } from "../i18n/format.ts";
import { Toggle } from "../ui/Toggle.tsx";
import { Zoom, useZoomView } from "../ui/Zoom.tsx";
import { fitScale, plotScale } from "./plot-fit.ts";
import { expectDraw } from "./draw-timing.ts";
import { IndicesTable } from "./IndicesTable.tsx";
import { PrintButton } from "./PrintButton.tsx";
import { isEsterman, markedResult, type WithResult } from "./result-model.ts";
import { SceneView } from "./SceneView.tsx";
import type { ResultMarks } from "./use-marks.ts";
import { useSourceNames } from "./result-sources.ts";

// The result display (accounts seed §2 "Result view and print"): every index, every plot of the result, the
// baseline and unreliable toggles with their rules, and the print button. Plots keep the field's natural order:
// Octopus-style first (greyscale, thresholds, values, comparison), then the Humphrey probability maps; the
// remaining analysis (Humphrey values, Bebie, difference, legends) folds away (client setting analysisExpanded).

export const FIELD_SIZE = 240;

const disabledReasons: Record<Exclude<BaselineToggleState, { enabled: true }>["reason"] | "screening", MessageDescriptor> = {
  invalid: msg`Only a complete, valid result can be the baseline.`,
  screening: msg`A screening result has no thresholds, so it cannot be the baseline.`,
  unreliable: msg`An unreliable result cannot be the baseline.`,
  "no-normative-database": msg`This result has no normative database, so it cannot be the baseline.`,
  "not-monocular": msg`Only a right- or left-eye result can be the baseline.`,
};

/** A seen / not-seen result is the page's only field plot: drawn larger (Esterman's 120 points span 150 degrees). */
function fieldSize(r: WithResult["result"]) {
  if (isEsterman(r)) return { width: FIELD_SIZE * 2, height: FIELD_SIZE * 1.5 };
  if (isScreening(r.strategy)) return { width: FIELD_SIZE * 1.5, height: FIELD_SIZE * 1.5 };
  return { width: FIELD_SIZE, height: FIELD_SIZE };
}

export function screenPlots(m: WithResult, analysis: ResultAnalysis, reference: WithResult | null): ResultPlots {
  return resultPlots({
    result: m.result,
    analysis,
    reference: reference?.result.thresholds ?? null,
    medium: "screen",
    field: fieldSize(m.result),
    gaze: { width: FIELD_SIZE * 4, height: 130 },
  });
}

/** A plot's drawing factor (plot-fit.ts) */
type ScaleOf = (scene: Scene, floor?: number) => number;

/**
 * The factor of each plot inside the zoom wrapper: the field plots' columns fill the measured width (`count` plots in
 * the first grid), each plot no wider than the width, times the chosen zoom (their own size times the zoom until the
 * wrapper has measured a width).
 */
function usePlotScale(count: number): ScaleOf {
  const view = useZoomView();
  return useCallback(
    (scene, floor) =>
      !view ? 1 : view.width === null ? view.zoom : plotScale(fitScale(view.width, count), scene.width, view.width, view.zoom, floor),
    [view, count],
  );
}

/** The gaze chart is four fields wide: on a narrow screen it keeps this share of its size and scrolls. */
const GAZE_MIN_SCALE = 0.6;

function PlotGrid({ scenes, scaleOf }: { scenes: ReadonlyArray<Scene | null>; scaleOf: ScaleOf }) {
  const shown = scenes.filter((s): s is Scene => s !== null);
  if (shown.length === 0) return null;
  return (
    <div className="plot-grid">
      {shown.map((s) => (
        <SceneView key={s.plot} scene={s} scale={scaleOf(s)} />
      ))}
    </div>
  );
}

/** Every plot of the result, inside the zoom wrapper (they grow with a wide window and shrink on a narrow one). */
function FittedPlots({
  plots,
  analysisExpanded,
  onAnalysisExpanded,
  detailsId,
}: {
  plots: ResultPlots;
  analysisExpanded: boolean;
  onAnalysisExpanded(expanded: boolean): void;
  detailsId: string;
}) {
  const { t } = useLingui();
  const legends = useMemo(() => [thresholdColourLegend(130), totalDeviationLegend(130), valueLegend(90, 220)], []);
  const main = [
    plots.esterman,
    plots.screening,
    plots.grayscale,
    plots.octopusThresholds,
    plots.numerical,
    plots.loss,
    plots.totalDeviationProbability,
    plots.patternDeviationProbability,
  ];
  const scaleOf = usePlotScale(main.filter((s) => s !== null).length);
  // Drawn once the zoom wrapper has measured its width (before the first paint), at the size they fit, never first at
  // their scenes' size: until then the page's drawn mark waits for them (draw-timing.ts).
  const measured = useZoomView()?.measured ?? true;
  useLayoutEffect(() => (measured ? undefined : expectDraw()), [measured]);
  if (!measured) return null;
  return (
    <>
      <PlotGrid scenes={main} scaleOf={scaleOf} />
      {plots.gaze ? (
        // Wider than a narrow screen: focusable, so a keyboard can scroll it (axe scrollable-region-focusable).
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable for keyboard scrolling (axe scrollable-region-focusable)
        <div className="gaze-scroll" tabIndex={0}>
          <SceneView scene={plots.gaze} scale={scaleOf(plots.gaze, GAZE_MIN_SCALE)} />
        </div>
      ) : (
        <p className="muted">{t`Gaze was not tracked in this test.`}</p>
      )}
      {!plots.esterman && !plots.screening && (
        <section className="analysis">
          <button
            type="button"
            className="btn btn-link"
            aria-expanded={analysisExpanded}
            aria-controls={detailsId}
            onClick={() => onAnalysisExpanded(!analysisExpanded)}
          >
            {analysisExpanded ? t`Hide the detailed analysis` : t`Show the detailed analysis`}
          </button>
          {analysisExpanded && (
            <div id={detailsId}>
              <PlotGrid
                scenes={[plots.humphreyThresholds, plots.totalDeviation, plots.patternDeviation, plots.bebie, plots.difference]}
                scaleOf={scaleOf}
              />
              {!plots.difference && <p className="muted">{t`No earlier result of this eye and pattern to compare with.`}</p>}
              <div className="plot-grid legends">
                {legends.map((s) => (
                  <SceneView key={s.plot} scene={s} scale={scaleOf(s)} />
                ))}
              </div>
            </div>
          )}
        </section>
      )}
    </>
  );
}

export interface ResultDisplayProps {
  readonly measurement: WithResult;
  readonly analysis: ResultAnalysis | null;
  readonly reference: WithResult | null;
  readonly marks: ResultMarks;
  readonly analysisExpanded: boolean;
  onAnalysisExpanded(expanded: boolean): void;
  /** Draws the printed page of this result (PrintLayout) while printing. */
  renderPrint(): React.ReactNode;
}

export function ResultDisplay({
  measurement: m,
  analysis,
  reference,
  marks,
  analysisExpanded,
  onAnalysisExpanded,
  renderPrint,
}: ResultDisplayProps) {
  const { t, i18n } = useLingui();
  const format = useDateFormat();
  const names = useSourceNames();
  const r = m.result;
  const plots = useMemo(() => (analysis ? screenPlots(m, analysis, reference) : null), [m, analysis, reference]);
  const marked = markedResult(m);
  const unreliable = marks.unreliable.has(m.id);
  const isBaseline = marks.baseline.left === m.id || marks.baseline.right === m.id;
  const state = baselineToggleState(marked, marks.unreliable);
  // A screening result is not "valid" for the baseline (result-model.ts): say why in its own words.
  const reason = state.enabled ? null : isScreening(r.strategy) && state.reason === "invalid" ? "screening" : state.reason;
  const [announce, setAnnounce] = useState("");
  const detailsId = `analysis-${m.id}`;

  return (
    <article className="card result" id={`result-${m.id}`} aria-labelledby={`result-title-${m.id}`} data-testid="result-display">
      <header className="result-head">
        <div className="spacer">
          <h3 id={`result-title-${m.id}`}>
            {i18n._(eyeNames[r.eye])} · {patternLabel[r.pattern]} · {names.resultStrategy(r)}
          </h3>
          <p className="muted num">
            {format.dateTime(r.takenAt)}
            {m.displayName ? ` · ${m.displayName}` : ""}
            <span className="result-source" data-testid="result-source">
              {names.resultSource(r)}
            </span>
          </p>
        </div>
        <div className="result-marks">
          <Toggle
            label={t`Baseline`}
            checked={isBaseline}
            disabled={!isBaseline && !state.enabled}
            onChange={() => {
              marks.toggleBaseline(marked);
              setAnnounce(isBaseline ? t`Baseline cleared.` : t`Marked as baseline.`);
            }}
          />
          <Toggle
            label={t`Unreliable`}
            checked={unreliable}
            onChange={(on) => {
              marks.setUnreliable(m.id, on);
              setAnnounce(on ? t`Marked unreliable: left out of the progression chart.` : t`Marked reliable again.`);
            }}
          />
          <PrintButton renderPrint={renderPrint} />
          {reason && !isBaseline && <p className="muted hint">{i18n._(disabledReasons[reason])}</p>}
        </div>
        <p className="visually-hidden" role="status">
          {announce}
        </p>
      </header>

      <IndicesTable result={r} analysis={analysis} />

      {!plots ? (
        <p className="alert alert-warning">{t`This result is incomplete, so its plots cannot be drawn.`}</p>
      ) : (
        <Zoom label={t`Plots`}>
          <FittedPlots plots={plots} analysisExpanded={analysisExpanded} onAnalysisExpanded={onAnalysisExpanded} detailsId={detailsId} />
        </Zoom>
      )}
    </article>
  );
}
