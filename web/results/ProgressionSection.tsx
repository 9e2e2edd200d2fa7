import { useMemo, useState } from "react";
import { Plural, useLingui } from "@lingui/react/macro";
import { mdSlope, type ProgressionPoint } from "../../core/analytics/progression/md-slope.ts";
import type { BaselineIds } from "../../core/analytics/progression/baseline.ts";
import { Eye, Pattern, patternLabel } from "../../core/model/enums.ts";
import {
  chartSourceChanges,
  progressionFilterLabels,
  progressionScene,
  progressionWindows,
  slopeOrReason,
  type ProgressionFilter,
} from "../../core/plots/progression.ts";
import { resolveText } from "../../core/plots/message.ts";
import { eyeNames } from "../i18n/names.ts";
import { SceneView, usePlotTranslate } from "./SceneView.tsx";
import { ProgressionAnalysis } from "./ProgressionAnalysis.tsx";
import { useElementWidth } from "../ui/use-element-width.ts";
import type { SeriesResult } from "../../core/analytics/progression/eye-progression.ts";
import { ALL, type ResultDevice, type ResultStrategy, type SeriesLimit } from "../../core/analytics/series-sources.ts";
import { useDateFormat } from "../i18n/format.ts";
import { useSourceNames } from "./result-sources.ts";

// The progression chart (accounts seed §2, §5, §9): mean defect over time per eye with its slope per year, filters
// all / 12 months / 1 month / 1 week / 1 day, from the baseline onwards when one is set. Only valid, reliable results
// of the analysis pattern (client setting `pattern`, G or 24-2) are drawn: the two patterns' means differ in scale.
// Devices and strategies pool (issue 29): a dashed line on the chart marks each change of either, the list under the
// chart says the same in words, and the reader may limit the series to one device (and, where it ran several, one
// strategy). The page limits its results once (PerimetryResults), so the chart and the analysis below read one series.

const filters: readonly ProgressionFilter[] = ["all", "12m", "1m", "1w", "1d"];
export const chartPatterns = [Pattern.P24_2, Pattern.G] as const;
const CHART_HEIGHT = 260;
const FALLBACK_WIDTH = 834;

export interface ProgressionSectionProps {
  readonly points: readonly ProgressionPoint[];
  /** The results as the progression analysis reads them (result-model.ts seriesResults). */
  readonly series: readonly SeriesResult[];
  readonly baseline: BaselineIds;
  readonly pattern: Pattern;
  onPattern(pattern: Pattern): void;
  readonly expanded: boolean;
  onExpanded(expanded: boolean): void;
  /** ISO time the windows count back from (default now). */
  readonly now?: string;
  /** The devices and strategies of the patient's results (the limit's choices), and the limit chosen. */
  readonly devices?: readonly ResultDevice[];
  readonly strategies?: readonly ResultStrategy[];
  readonly limit?: SeriesLimit;
  onLimit?(limit: SeriesLimit): void;
}

export function ProgressionSection({
  points,
  series,
  baseline,
  pattern,
  onPattern,
  expanded,
  onExpanded,
  now,
  devices = [],
  strategies = [],
  limit = {},
  onLimit,
}: ProgressionSectionProps) {
  const { t, i18n } = useLingui();
  const names = useSourceNames();
  const format = useDateFormat();
  const translate = usePlotTranslate();
  const [filter, setFilter] = useState<ProgressionFilter>("all");
  const [ref, measured] = useElementWidth<HTMLElement>();
  // Without layout the chart takes a default width; the card's padding (16 px) and border each side.
  const sectionWidth = measured === null ? FALLBACK_WIDTH : measured;
  const width = sectionWidth === undefined ? null : sectionWidth - 34;
  const at = useMemo(() => now ?? new Date().toISOString(), [now]);
  const chartPattern = chartPatterns.includes(pattern as (typeof chartPatterns)[number]) ? pattern : Pattern.P24_2;
  const own = useMemo(() => points.filter((p) => p.pattern === chartPattern), [points, chartPattern]);
  const baselines = useMemo(
    () => ({ ...(baseline.right ? { right: baseline.right } : {}), ...(baseline.left ? { left: baseline.left } : {}) }),
    [baseline.right, baseline.left],
  );
  const scene = useMemo(
    () =>
      expanded && width !== null
        ? progressionScene({ points: own, filter, now: at, baselines, width: Math.max(320, width), height: CHART_HEIGHT, showTitle: false })
        : null,
    [expanded, own, filter, at, baselines, width],
  );
  const changes = useMemo(() => (expanded ? chartSourceChanges(own, filter, at) : []), [expanded, own, filter, at]);
  // A choice that is no longer among the results (another patient's device) reads as all, as limitSeries reads it.
  const device = devices.some((d) => d.key === limit.device) ? limit.device! : ALL;
  const strategy = strategies.some((s) => s.key === limit.strategy) ? limit.strategy! : ALL;
  const slopes = [Eye.Right, Eye.Left].map((eye) => {
    const s = mdSlope(own, {
      eye,
      window: progressionWindows[filter],
      now: at,
      baselineId: eye === Eye.Right ? baseline.right : baseline.left,
    });
    return { eye, slope: s, count: s.points.length };
  });
  const title = t`Progression of mean defect`;
  return (
    <section ref={ref} className="card progression" aria-labelledby="progression-heading" data-testid="progression">
      <div className="row">
        <h3 id="progression-heading" className="spacer">
          {title}
        </h3>
        <button
          type="button"
          className="btn btn-link"
          aria-expanded={expanded}
          aria-controls="progression-body"
          onClick={() => onExpanded(!expanded)}
        >
          {expanded ? t`Hide` : t`Show`}
        </button>
      </div>
      {expanded && (
        <div id="progression-body">
          <div className="row progression-controls">
            <fieldset className="chips" aria-label={t`Period`}>
              {filters.map((f) => (
                <button key={f} type="button" className="chip" aria-pressed={filter === f} onClick={() => setFilter(f)}>
                  {resolveText(progressionFilterLabels[f], translate)}
                </button>
              ))}
            </fieldset>
            <fieldset className="chips" aria-label={t`Pattern`}>
              {chartPatterns.map((p) => (
                <button key={p} type="button" className="chip" aria-pressed={chartPattern === p} onClick={() => onPattern(p)}>
                  {patternLabel[p]}
                </button>
              ))}
            </fieldset>
          </div>
          {onLimit && (devices.length > 1 || strategies.length > 1) && (
            <div className="row progression-controls series-limit">
              {devices.length > 1 && (
                <fieldset className="chips" aria-labelledby="series-device-label" data-testid="series-device">
                  <span id="series-device-label" className="chips-label">{t`Device:`}</span>
                  {[null, ...devices].map((d) => (
                    <button
                      key={d?.key ?? ALL}
                      type="button"
                      className="chip"
                      data-device={d?.key ?? ALL}
                      aria-pressed={device === (d?.key ?? ALL)}
                      onClick={() => onLimit({ device: d?.key ?? ALL })}
                    >
                      {d ? names.device(d) : t`all`}
                    </button>
                  ))}
                </fieldset>
              )}
              {strategies.length > 1 && (
                <fieldset className="chips" aria-labelledby="series-strategy-label" data-testid="series-strategy">
                  <span id="series-strategy-label" className="chips-label">{t`Strategy:`}</span>
                  {[null, ...strategies].map((s) => (
                    <button
                      key={s?.key ?? ALL}
                      type="button"
                      className="chip"
                      data-strategy={s?.key ?? ALL}
                      aria-pressed={strategy === (s?.key ?? ALL)}
                      onClick={() => onLimit({ device, strategy: s?.key ?? ALL })}
                    >
                      {s ? names.strategy(s) : t`all`}
                    </button>
                  ))}
                </fieldset>
              )}
            </div>
          )}
          <ul className="slopes num" aria-label={t`Slopes`}>
            {slopes.map((s) => (
              <li key={s.eye} data-eye={s.eye}>
                <strong>{i18n._(eyeNames[s.eye])}</strong> {resolveText(slopeOrReason(s.slope), translate)}
                <span className="muted">
                  {" "}
                  · <Plural value={s.count} one="# result" other="# results" />
                </span>
              </li>
            ))}
          </ul>
          <div className="progression-chart">{scene && <SceneView scene={scene} label={title} />}</div>
          {changes.length > 0 && (
            <div className="series-changes small" data-testid="series-changes">
              <p>
                <strong>{t`Device or strategy changes`}</strong> {t`(dashed lines on the chart):`}
              </p>
              <ul>
                {changes.map((c) => (
                  <li key={`${c.eye}-${c.measurementId}`} data-eye={c.eye} data-id={c.measurementId}>
                    <span className="num">{format.date(c.takenAt)}</span>, {i18n._(eyeNames[c.eye])}: {names.label(c.from)} →{" "}
                    <strong>{names.label(c.to)}</strong>
                  </li>
                ))}
              </ul>
            </div>
          )}
          <ProgressionAnalysis results={series} baseline={baseline} pattern={chartPattern} />
        </div>
      )}
    </section>
  );
}
