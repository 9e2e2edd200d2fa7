import { useMemo } from "react";
import { msg } from "@lingui/core/macro";
import { Plural, useLingui } from "@lingui/react/macro";
import type { MessageDescriptor } from "@lingui/core";
import {
  eyeProgression,
  type EyeProgression,
  type SeriesResult,
  type SetAsideReason,
} from "../../core/analytics/progression/eye-progression.ts";
import type { EventStatus } from "../../core/analytics/progression/events.ts";
import type { BaselineIds } from "../../core/analytics/progression/baseline.ts";
import { Eye, type Pattern, patternLabel } from "../../core/model/enums.ts";
import { progressionMapScene, eventTriangle, type EventMark } from "../../core/plots/progression-map.ts";
import { resolveText } from "../../core/plots/message.ts";
import { resolveColour } from "../../core/plots/palette.ts";
import { noSlopeLabels } from "../../core/plots/progression.ts";
import { eyeNames } from "../i18n/names.ts";
import { resultStrategy } from "../../core/analytics/series-sources.ts";
import { useSourceNames } from "./result-sources.ts";
import { useDateFormat } from "../i18n/format.ts";
import { SceneView, usePlotTranslate } from "./SceneView.tsx";
import { ProgressionCriteria } from "./ProgressionCriteria.tsx";

// The progression analysis beside the mean-defect chart (issue 20): per eye, GPA-style events against the baseline
// pair and PoPLR's combined p-value with the map of per-location TD slopes, for the chart's pattern, then every
// published criterion (ProgressionCriteria; the VFI trend is there, under GPA's rules, which do not draw it on G).
// It analyses one eye and one pattern, pooling devices and strategies (issue 29) but naming each change of either with
// its date, and lists each result of the eye it sets aside with its date and why (another pattern, not a complete
// threshold test, marked unreliable, no normative database, before the baseline). The reader limits the series to one
// device above it (ProgressionSection).

export const eventStatusNames: Record<EventStatus, MessageDescriptor> = {
  none: msg`No progression`,
  "possible progression": msg`Possible progression`,
  "likely progression": msg`Likely progression`,
};

export const setAsideNames: Record<SetAsideReason, MessageDescriptor> = {
  "other-eye-or-pattern": msg`other eye or pattern`,
  "not-threshold": msg`not a complete threshold test`,
  unreliable: msg`marked unreliable`,
  "no-normative-database": msg`no normative database`,
  "before-baseline": msg`before the baseline`,
};

export const percent = (p: number) => (p < 0.001 ? "< 0.1" : (100 * p).toFixed(1));

export function ProgressionAnalysis({
  results,
  baseline,
  pattern,
}: {
  results: readonly SeriesResult[];
  baseline: BaselineIds;
  pattern: Pattern;
}) {
  const { t } = useLingui();
  const analyses = useMemo(
    () =>
      [Eye.Right, Eye.Left].map((eye) =>
        eyeProgression(results, { eye, pattern, baselineId: eye === Eye.Right ? baseline.right : baseline.left }),
      ),
    [results, pattern, baseline.right, baseline.left],
  );
  return (
    <div className="progression-analysis" data-testid="progression-analysis">
      <h4>{t`Progression analysis`}</h4>
      <div className="progression-analysis-eyes">
        {analyses.map((a) => (
          <EyeAnalysis key={a.eye} analysis={a} byId={results} />
        ))}
      </div>
      <EventLegend />
    </div>
  );
}

function EyeAnalysis({ analysis: a, byId }: { analysis: EyeProgression; byId: readonly SeriesResult[] }) {
  const { t, i18n } = useLingui();
  const translate = usePlotTranslate();
  const format = useDateFormat();
  const names = useSourceNames();
  const dateOf = (id: string) => format.date(byId.find((r) => r.id === id)!.takenAt);
  const scene = useMemo(
    () =>
      a.events
        ? progressionMapScene({
            pattern: a.pattern,
            eye: a.eye,
            width: 300,
            height: 300,
            slopes: a.poplr?.slopes ?? null,
            slopeP: a.poplr?.slopeP ?? null,
            once: a.events.once,
            twice: a.events.twice,
            thrice: a.events.thrice,
          })
        : null,
    [a],
  );
  // The results of this eye it set aside (the other eye's are the other section's), oldest first.
  const setAside = a.setAside.flatMap((s) => {
    const r = byId.find((x) => x.id === s.id);
    return r && r.eye === a.eye ? [{ result: r, reason: s.reason }] : [];
  });
  const why = (r: SeriesResult, reason: SetAsideReason): string =>
    reason === "other-eye-or-pattern" ? t`other pattern (${patternLabel[r.pattern]})` : i18n._(setAsideNames[reason]);
  const eye = i18n._(eyeNames[a.eye]);
  // One strategy throughout (no change): named, Isopter's or the imported file's ("SITA Standard").
  const firstUsed = a.used.length > 0 ? byId.find((r) => r.id === a.used[0]) : undefined;
  const first = firstUsed && (firstUsed.source?.strategyName || firstUsed.strategy) ? firstUsed : undefined;
  const trendNone = resolveText(noSlopeLabels[a.noTrend ?? "too-few-results"], translate);
  return (
    <section className="progression-eye" data-eye={a.eye} aria-label={eye}>
      <h5>{eye}</h5>
      {a.events ? (
        <>
          <dl className="progression-facts">
            <dt>{t`Events (GPA)`}</dt>
            <dd data-fact="events">
              <strong>{i18n._(eventStatusNames[a.events.status])}</strong>
            </dd>
            <dt>{t`Baseline pair`}</dt>
            <dd className="num" data-fact="baseline">
              {dateOf(a.events.baseline[0])} · {dateOf(a.events.baseline[1])}
            </dd>
            <dt>{t`PoPLR (TD)`}</dt>
            <dd className="num" data-fact="poplr">
              {a.poplr ? t`p = ${percent(a.poplr.p)} %` : trendNone}
            </dd>
          </dl>
          {scene && <SceneView scene={scene} />}
        </>
      ) : (
        <p
          className="muted"
          data-fact="none"
        >{t`No progression analysis: it needs at least 3 results of this pattern with a normative database.`}</p>
      )}
      {a.criteria && <ProgressionCriteria criteria={a.criteria} />}
      <p className="muted small" data-fact="used">
        <Plural value={a.used.length} one="# result analysed" other="# results analysed" />
        {first && a.changes.length === 0 && (
          <>
            {" · "}
            {t`only ${names.strategy(resultStrategy(first))} threshold results are pooled`}
          </>
        )}
      </p>
      {a.changes.length > 0 && (
        <div className="progression-changes small" data-fact="changes">
          <p>
            <strong>{t`Pooled across devices or strategies.`}</strong>{" "}
            {a.events &&
              t`Later results were taken with another device or strategy than the baseline: read the events and trends with care.`}
          </p>
          <ul>
            {a.changes.map((c) => (
              <li key={c.id} data-id={c.id}>
                <span className="num">{format.date(c.takenAt)}</span>: {names.label(c.from)} → {names.label(c.to)}
              </li>
            ))}
          </ul>
        </div>
      )}
      {setAside.length > 0 && (
        <>
          <p className="muted small">
            <Plural value={setAside.length} one="# result set aside:" other="# results set aside:" />
          </p>
          <ul className="progression-set-aside muted small" data-fact="set-aside">
            {setAside.map(({ result, reason }) => (
              <li key={result.id} data-id={result.id} data-reason={reason}>
                <span className="num">{format.date(result.takenAt)}</span>: {why(result, reason)}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

const legendMarks: ReadonlyArray<[EventMark, MessageDescriptor]> = [
  ["once", msg`deteriorated on the last result`],
  ["twice", msg`on the last 2 results`],
  ["thrice", msg`on the last 3 results`],
];

/** What the triangles and bold slopes of the maps mean (GPA: 3 or more locations on 2 results = possible, on 3 = likely). */
function EventLegend() {
  const { t, i18n } = useLingui();
  return (
    <ul className="progression-legend muted small">
      {legendMarks.map(([mark, label]) => (
        <li key={mark}>
          <svg width="12" height="12" aria-hidden="true">
            {eventTriangle(6, 6, 10, mark).map(
              (n, i) =>
                n.kind === "polyline" && (
                  <polygon
                    // biome-ignore lint/suspicious/noArrayIndexKey: the nodes of one fixed symbol, never reordered
                    key={i}
                    points={n.points.join(",")}
                    fill={n.fill ? resolveColour(n.fill) : "none"}
                    stroke={n.stroke ? resolveColour(n.stroke) : "none"}
                    strokeWidth={n.strokeWidth ?? 0}
                  />
                ),
            )}
          </svg>{" "}
          {i18n._(label)}
        </li>
      ))}
      <li>{t`Bold: TD slope falling with p < 1 %. 3 or more locations on 2 results: possible progression; on 3: likely.`}</li>
    </ul>
  );
}
