import { useCallback, useEffect, useLayoutEffect, useMemo, useState } from "react";
import { useSearchParams } from "react-router-dom";
import { useLingui } from "@lingui/react/macro";
import type { Patient } from "../../core/model/patient.ts";
import { Eye } from "../../core/model/enums.ts";
import { printProgression } from "../../core/plots/print-header.ts";
import { openingChartPattern } from "../../core/analytics/progression/md-slope.ts";
import type { Pattern } from "../../core/model/enums.ts";
import { ALL, resultDevice, resultStrategy, type SeriesLimit } from "../../core/analytics/series-sources.ts";
import { markResultsData, settleResultsDrawn } from "./draw-timing.ts";
import { BinocularField } from "./BinocularField.tsx";
import { binocularVisit } from "./binocular-visit.ts";
import { HistorySection } from "./HistorySection.tsx";
import { PrintLayout } from "./PrintLayout.tsx";
import { browserTimeZone } from "./print-page.ts";
import { ProgressionSection } from "./ProgressionSection.tsx";
import { ResultDisplay } from "./ResultDisplay.tsx";
import {
  analysisOf,
  displayMeanDefect,
  hasResult,
  limitResults,
  previousOfSameKind,
  progressionPoints,
  resultDevices,
  resultStrategies,
  seriesResults,
  type PerimetryTest,
  type WithResult,
} from "./result-model.ts";
import { useClientSettings, useResultMarks } from "./use-marks.ts";
import "./results.css";

// The result side of the patient's perimetry page: the selected result (or, on /perimetry/all, the full history),
// the progression chart and the visual-field history. The page around it lists the tests by date with notes. A test is
// a measurement or, in the appointment variant, a perimetry examination (result-model.ts PerimetryTest): one history.

export interface PerimetryResultsProps {
  readonly patient: Patient;
  /** The patient's measurements and perimetry examinations (result-model.ts perimetryTests). */
  readonly tests: readonly PerimetryTest[];
  /** The selected measurement's or examination's id, or "all" for the full history page. */
  readonly perimetryId: string;
  /** ISO time the progression windows count back from (tests); default now. */
  readonly now?: string;
}

export function PerimetryResults({ patient, tests, perimetryId, now }: PerimetryResultsProps) {
  const { t } = useLingui();
  const [params] = useSearchParams();
  const marks = useResultMarks();
  const [settings, updateSettings] = useClientSettings();
  const results = useMemo(() => {
    markResultsData(); // the measurements reached the page: draw-timing counts from here
    return tests.filter((m) => m.trashedAt === null).filter(hasResult);
  }, [tests]);
  // After this commit's plots have registered their draws (children's layout effects run first).
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per new list of results, which is what it times
  useLayoutEffect(settleResultsDrawn, [results]);
  const birthdate = patient.birthdate;
  // Full analyses are built on demand (the selected result, its reference, history cells scrolled near) and cached per
  // result; the chart needs only each result's mean defect.
  const analyse = useCallback((m: WithResult) => analysisOf(m.result, birthdate), [birthdate]);
  // The reader's limit to one device (and strategy), applied here once: the chart's points and the progression
  // analysis' series (GPA baseline, PoPLR, VFI trend) are both built from the limited results (issue 29).
  const [limit, setLimit] = useState<SeriesLimit>({});
  const devices = useMemo(() => resultDevices(results), [results]);
  const strategies = useMemo(() => resultStrategies(limitResults(results, { device: limit.device ?? ALL })), [results, limit.device]);
  const limited = useMemo(() => limitResults(results, limit), [results, limit]);
  const points = useMemo(
    () => progressionPoints(limited, marks.unreliable, (m) => displayMeanDefect(m.result, birthdate)),
    [limited, marks.unreliable, birthdate],
  );
  const series = useMemo(() => seriesResults(limited, marks.unreliable, birthdate), [limited, marks.unreliable, birthdate]);
  const allSeries = useMemo(
    () => (limited.length === results.length ? series : seriesResults(results, marks.unreliable, birthdate)),
    [limited, results, series, marks.unreliable, birthdate],
  );
  // The chart opens on the pattern this patient has the most results of; the reader's choice then holds for the
  // patient and is stored as the client setting (accounts seed §3).
  const [chosen, setChosen] = useState<{ readonly patientId: string; readonly pattern: Pattern } | null>(null);
  const chartPattern = chosen?.patientId === patient.id ? chosen.pattern : openingChartPattern(points, settings.pattern);
  const choosePattern = (pattern: Pattern) => {
    setChosen({ patientId: patient.id, pattern });
    updateSettings({ pattern });
  };
  const all = perimetryId === "all";
  const selected = all ? null : (results.find((m) => m.id === perimetryId) ?? null);
  const waiting = !all && !selected && tests.some((m) => m.id === perimetryId && m.trashedAt === null);
  const reference = useMemo(() => (selected ? previousOfSameKind(results, selected) : null), [results, selected]);
  const analysis = selected ? analyse(selected) : null;
  // The visit's binocular integrated field, for the print (BinocularField shows it on the page).
  const binocular = useMemo(
    () => (selected ? (binocularVisit(selected, results, browserTimeZone())?.field ?? null) : null),
    [selected, results],
  );

  // The printed page states the series the page shows when the printed result is in it (limited, it says to what);
  // a result the limit leaves out states its pooled series.
  const printedProgression = (m: WithResult) => {
    const inLimited = limited.length < results.length && limited.includes(m);
    const baselineId = m.result.eye === Eye.Right ? marks.baseline.right : marks.baseline.left;
    const limitedTo = inLimited
      ? {
          device: limit.device && limit.device !== ALL ? resultDevice(m.result) : null,
          strategy: limit.strategy && limit.strategy !== ALL ? resultStrategy(m.result) : null,
        }
      : null;
    return printProgression(inLimited ? series : allSeries, m.result, baselineId, browserTimeZone(), limitedTo);
  };

  // "?scrollToMeasurement=1 scrolls to the selected measurement" (accounts seed §2): the result itself.
  useEffect(() => {
    if (!selected || params.get("scrollToMeasurement") !== "1") return;
    // After the list's own scroll (a parent effect runs after ours) and layout.
    const frame = requestAnimationFrame(() => document.getElementById(`result-${selected.id}`)?.scrollIntoView({ block: "start" }));
    return () => cancelAnimationFrame(frame);
  }, [selected, params]);

  return (
    <div className="perimetry-results stack" data-testid="perimetry-results">
      {selected && (
        <ResultDisplay
          key={selected.id}
          measurement={selected}
          analysis={analysis}
          reference={reference}
          marks={marks}
          analysisExpanded={settings.analysisExpanded}
          onAnalysisExpanded={(analysisExpanded) => updateSettings({ analysisExpanded })}
          renderPrint={() =>
            analysis && (
              <PrintLayout
                measurement={selected as WithResult}
                analysis={analysis}
                reference={reference}
                patient={patient}
                markedUnreliable={marks.unreliable.has((selected as WithResult).id)}
                progression={printedProgression(selected as WithResult)}
                binocular={binocular}
              />
            )
          }
        />
      )}
      {selected && <BinocularField current={selected} results={results} />}
      {waiting && <p className="alert alert-info">{t`This test has no result yet.`}</p>}
      {!all && !selected && !waiting && <p className="alert alert-warning">{t`This test was not found. It may have been deleted.`}</p>}
      <ProgressionSection
        points={points}
        series={series}
        baseline={marks.baseline}
        pattern={chartPattern}
        onPattern={choosePattern}
        expanded={settings.progressionChartExpanded}
        onExpanded={(progressionChartExpanded) => updateSettings({ progressionChartExpanded })}
        {...(now ? { now } : {})}
        devices={devices}
        strategies={strategies}
        limit={limit}
        onLimit={setLimit}
      />
      <HistorySection
        results={results}
        analyse={analyse}
        birthdate={birthdate}
        unreliable={marks.unreliable}
        patientId={patient.id}
        selectedId={selected?.id ?? null}
        // The full history page always shows it; under a selected result it folds (client setting historyExpanded).
        expanded={all || settings.historyExpanded}
        onExpanded={(historyExpanded) => updateSettings({ historyExpanded })}
      />
    </div>
  );
}
