import { useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { Link } from "react-router-dom";
import { msg } from "@lingui/core/macro";
import { useLingui } from "@lingui/react/macro";
import type { MessageDescriptor } from "@lingui/core";
import type { ResultAnalysis } from "../../core/analytics/result-analysis.ts";
import { patternLabel } from "../../core/model/enums.ts";
import { grayscaleScene } from "../../core/plots/grayscale.ts";
import { humphreyDeviationSymbolsScene } from "../../core/plots/humphrey.ts";
import { octopusLossScene, octopusThresholdsScene } from "../../core/plots/octopus.ts";
import { plotLevels } from "../../core/plots/result-plots.ts";
import type { Scene } from "../../core/plots/scene.ts";
import { estermanScene } from "../../core/plots/esterman.ts";
import { isScreening, screeningScene, seenAt, seenPercent } from "../../core/plots/screening.ts";
import { useDateFormat } from "../i18n/format.ts";
import { expectDraw } from "./draw-timing.ts";
import { dB2, displayMeanDefect, isEsterman, pairsByDay, type WithResult } from "./result-model.ts";
import { useSourceNames, type SourceNames } from "./result-sources.ts";
import { SceneView } from "./SceneView.tsx";

// The visual-field history (accounts seed §2): per date the right and left eye side by side, with show/hide toggles
// for the plots each result shows. Plots draw only once scrolled near (a full history of 40 results would otherwise
// build a hundred canvases up front).

export type HistoryPlot = "grayscale" | "thresholds" | "loss" | "totalDeviationProbability" | "patternDeviationProbability";
export const historyPlots: readonly HistoryPlot[] = [
  "grayscale",
  "thresholds",
  "loss",
  "totalDeviationProbability",
  "patternDeviationProbability",
];
const historyPlotNames: Record<HistoryPlot, MessageDescriptor> = {
  grayscale: msg`Greyscale`,
  thresholds: msg`Thresholds`,
  loss: msg`Comparison`,
  totalDeviationProbability: msg`Total deviation probability`,
  patternDeviationProbability: msg`Pattern deviation probability`,
};
export const HISTORY_PLOT_SIZE = 170;

/** The scene of one history plot for a result, or null when the result has no data for it. */
export function historyScene(m: WithResult, analysis: ResultAnalysis | null, kind: HistoryPlot, size = HISTORY_PLOT_SIZE): Scene | null {
  if (!analysis) return null;
  const r = m.result;
  if (isEsterman(r))
    return kind === "grayscale"
      ? estermanScene({ thresholds: r.thresholds, score: analysis.estermanScore, width: size, height: size, showTitle: false })
      : null;
  // A screening shows seen / not seen in the greyscale's place and nothing else (screening.ts).
  if (isScreening(r.strategy))
    return kind === "grayscale"
      ? screeningScene({ pattern: r.pattern, eye: r.eye, values: r.thresholds, width: size, height: size, showTitle: false })
      : null;
  const box = { pattern: r.pattern, eye: r.eye, width: size, height: size, showTitle: false };
  switch (kind) {
    case "grayscale":
      return grayscaleScene({ ...box, thresholds: r.thresholds });
    case "thresholds":
      return octopusThresholdsScene({ ...box, thresholds: r.thresholds });
    case "loss":
      return analysis.octopus ? octopusLossScene({ ...box, defects: analysis.octopus.defects }) : null;
    case "totalDeviationProbability":
      return analysis.normative
        ? humphreyDeviationSymbolsScene({ ...box, kind: "total", levels: plotLevels(analysis.normative.tdp) })
        : null;
    case "patternDeviationProbability":
      return analysis.normative
        ? humphreyDeviationSymbolsScene({ ...box, kind: "pattern", levels: plotLevels(analysis.normative.pdp) })
        : null;
  }
}

// One observer for every history cell (a full history has dozens): within a screen of the viewport counts as near.
const nearWatchers = new Map<Element, (near: boolean) => void>();
let nearObserver: IntersectionObserver | null = null;

function watchNear(el: Element, onChange: (near: boolean) => void): () => void {
  nearObserver ??= new IntersectionObserver(
    (entries) => {
      for (const e of entries) nearWatchers.get(e.target)?.(e.isIntersecting);
    },
    { rootMargin: "100% 0px" },
  );
  nearWatchers.set(el, onChange);
  nearObserver.observe(el);
  return () => {
    nearWatchers.delete(el);
    nearObserver?.unobserve(el);
  };
}

/**
 * Renders its children once the placeholder comes within a screen of the viewport. Until the observer's first answer
 * it holds a draw (draw-timing.ts): cells near on arrival count in the page's drawn mark, the others do not.
 */
function WhenNear({ height, children }: { height: number; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(typeof IntersectionObserver === "undefined");
  const held = useRef<(() => void) | null>(null);
  useLayoutEffect(() => {
    if (near) return;
    const release = expectDraw();
    held.current = release;
    return release;
  }, [near]);
  useEffect(() => {
    if (near || !ref.current) return;
    return watchNear(ref.current, (isNear) => {
      if (isNear) setNear(true);
      else held.current?.();
    });
  }, [near]);
  return (
    <div ref={ref} style={near ? undefined : { minHeight: height }}>
      {near ? children : null}
    </div>
  );
}

type DateFormat = ReturnType<typeof useDateFormat>;

/** A cell's plots, built only once the cell is near the viewport (WhenNear): the scenes are the costly part. */
function HistoryPlots({
  m,
  analyse,
  shown,
}: {
  m: WithResult;
  analyse: (m: WithResult) => ResultAnalysis | null;
  shown: readonly HistoryPlot[];
}) {
  const scenes = useMemo(() => {
    const analysis = analyse(m);
    return shown.map((k) => historyScene(m, analysis, k)).filter((s): s is Scene => s !== null);
  }, [m, analyse, shown]);
  return (
    <div className="history-plots">
      {scenes.map((s) => (
        <SceneView key={s.plot} scene={s} />
      ))}
    </div>
  );
}

function HistoryCell({
  m,
  analyse,
  meanDefect,
  shown,
  patientId,
  selected,
  unreliable,
  format,
  names,
}: {
  m: WithResult;
  analyse: (m: WithResult) => ResultAnalysis | null;
  meanDefect: number | null;
  shown: readonly HistoryPlot[];
  patientId: string;
  selected: boolean;
  unreliable: boolean;
  format: DateFormat;
  names: SourceNames;
}) {
  const { t } = useLingui();
  const r = m.result;
  return (
    <div className={`history-cell${selected ? " is-selected" : ""}`} data-testid="history-cell" data-measurement={m.id}>
      <p className="history-meta num">
        <Link to={`/patient/${patientId}/perimetry/${m.id}`} aria-current={selected ? "true" : undefined}>
          {format.dateTime(r.takenAt)} · {patternLabel[r.pattern]} · {names.resultStrategy(r)}
        </Link>
        {isEsterman(r) || isScreening(r.strategy) ? (
          <span>
            {" "}
            · {t`Seen`} {seenPercent(seenAt(r.thresholds))} %
          </span>
        ) : (
          <span>
            {" "}
            · {t`MD`} {dB2(meanDefect)} dB
          </span>
        )}
        {unreliable && <span className="badge">{t`Unreliable`}</span>}
      </p>
      {/* Where it was taken (issue 29): an Isopter headset, or the imported perimeter. */}
      <p className={`history-source muted small${r.source ? " is-imported" : ""}`} data-testid="history-source">
        {names.resultSource(r)}
      </p>
      <WhenNear height={HISTORY_PLOT_SIZE}>
        <HistoryPlots m={m} analyse={analyse} shown={shown} />
      </WhenNear>
    </div>
  );
}

export interface HistorySectionProps {
  readonly results: readonly WithResult[];
  /** The analysis of a result (cached by the page), asked for once its plots are near. */
  analyse(m: WithResult): ResultAnalysis | null;
  /** The patient's birthdate: the printed mean defect is the analysis' (displayMeanDefect). */
  readonly birthdate: string;
  readonly unreliable: ReadonlySet<string>;
  readonly patientId: string;
  readonly selectedId: string | null;
  readonly expanded: boolean;
  onExpanded(expanded: boolean): void;
}

export function HistorySection({
  results,
  analyse,
  birthdate,
  unreliable,
  patientId,
  selectedId,
  expanded,
  onExpanded,
}: HistorySectionProps) {
  const { t, i18n } = useLingui();
  const format = useDateFormat();
  const names = useSourceNames();
  const [shown, setShown] = useState<readonly HistoryPlot[]>(["grayscale", "totalDeviationProbability"]);
  const days = useMemo(() => pairsByDay(results), [results]);
  const toggle = (k: HistoryPlot) =>
    setShown((s) => (s.includes(k) ? s.filter((x) => x !== k) : historyPlots.filter((x) => x === k || s.includes(x))));
  const cell = (m: WithResult) => (
    <HistoryCell
      key={m.id}
      m={m}
      analyse={analyse}
      meanDefect={displayMeanDefect(m.result, birthdate)}
      shown={shown}
      patientId={patientId}
      selected={m.id === selectedId}
      unreliable={unreliable.has(m.id)}
      format={format}
      names={names}
    />
  );
  return (
    <section className="card history" aria-labelledby="history-heading" data-testid="history">
      <div className="row">
        <h3 id="history-heading" className="spacer">{t`Visual-field history`}</h3>
        <button
          type="button"
          className="btn btn-link"
          aria-expanded={expanded}
          aria-controls="history-body"
          onClick={() => onExpanded(!expanded)}
        >
          {expanded ? t`Hide` : t`Show`}
        </button>
      </div>
      {expanded && (
        <div id="history-body">
          <fieldset className="chips" aria-label={t`Plots shown`}>
            {historyPlots.map((k) => (
              <button key={k} type="button" className="chip" aria-pressed={shown.includes(k)} onClick={() => toggle(k)}>
                {i18n._(historyPlotNames[k])}
              </button>
            ))}
          </fieldset>
          {days.length === 0 && <p className="muted">{t`No results yet.`}</p>}
          {days.map((d) => (
            <div key={d.day} className="history-day" data-testid="history-day">
              <h4 className="num">{format.date(d.day)}</h4>
              <div className="history-pair">
                <div className="history-eye">
                  <h5>{t`Right eye (OD)`}</h5>
                  {d.right.length ? d.right.map(cell) : <p className="muted">{t`No result`}</p>}
                </div>
                <div className="history-eye">
                  <h5>{t`Left eye (OS)`}</h5>
                  {d.left.length ? d.left.map(cell) : <p className="muted">{t`No result`}</p>}
                </div>
              </div>
              {d.other.length > 0 && (
                <div className="history-eye">
                  <h5>{t`Binocular`}</h5>
                  {d.other.map(cell)}
                </div>
              )}
            </div>
          ))}
        </div>
      )}
    </section>
  );
}
