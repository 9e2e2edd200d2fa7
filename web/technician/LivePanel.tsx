import { useMemo } from "react";
import { msg } from "@lingui/core/macro";
import { useLingui } from "@lingui/react/macro";
import type { MessageDescriptor } from "@lingui/core";
import { liveScene, liveColours, progressPercent, type LiveState, type LiveVariant } from "../../core/plots/live.ts";
import { plotPalette } from "../../core/plots/palette.ts";
import { toSvg } from "../../core/plots/svg.ts";
import { Pattern, Strategy, patternLabel } from "../../core/model/enums.ts";
import type { Measurement } from "../../core/model/measurement.ts";
import type { RunningTest } from "../../core/model/running-test.ts";
import { ProgressBar } from "../ui/ProgressBar.tsx";
import type { GazeCalibration } from "../../core/model/enums.ts";
import { gazeCalibrationNames } from "./names.ts";
import { eyeNames } from "../i18n/names.ts";
import { PatientName } from "../ui/PatientName.tsx";

// The live measurement panel (scheduling seed §2; accounts seed §4 "green if answered, red if last updated and
// unanswered, gray otherwise"): core/plots draws the locations (its scene without title, legend and bar); the title,
// legend and progress bar are HTML so they are translated and read by assistive technology.

const SCENE_WIDTH = 300;
const SCENE_HEIGHT = 252;

export const liveTitleNames: Record<LiveVariant, MessageDescriptor> = {
  threshold: msg`Live measurement`,
  supra: msg`Live measurement: supra-threshold`,
  esterman: msg`Live measurement: Esterman`,
};

const legendNames: Record<LiveState, MessageDescriptor> = {
  answered: msg`Answered`,
  notAnswered: msg`Not answered`,
  presented: msg`Presented`,
};

export const liveVariantOf = (m: Pick<Measurement, "pattern" | "strategy">): LiveVariant =>
  m.pattern === Pattern.Esterman ? "esterman" : m.strategy === Strategy.Supra ? "supra" : "threshold";

/** What the panel shows of the test under way: a queued measurement, or a perimetry examination of an appointment. */
export type LiveTest = Pick<Measurement, "displayName" | "pattern" | "strategy" | "eye" | "patientId">;

export function LivePanel({
  progress,
  measurement,
  gazeCalibration,
  laneName,
  standalone = false,
}: {
  progress: RunningTest;
  measurement: LiveTest | undefined;
  gazeCalibration?: GazeCalibration;
  /** The headset it runs on, named beside the patient. */
  laneName?: string;
  /** A stand-alone run (the device repeats it until switched off). */
  standalone?: boolean;
}) {
  const { t, i18n } = useLingui();
  const variant = measurement ? liveVariantOf(measurement) : "threshold";
  const title = i18n._(liveTitleNames[variant]);
  const svg = useMemo(() => {
    if (!measurement || measurement.pattern === Pattern.Undefined) return null;
    const { title: _title, ...scene } = liveScene({
      pattern: measurement.pattern,
      eye: measurement.eye,
      variant,
      width: SCENE_WIDTH,
      height: SCENE_HEIGHT,
      showTitle: false,
      showLegend: false,
      thresholds: progress.thresholds,
      lastUpdatedIndex: progress.lastUpdatedIndex,
      progress: { done: progress.nTested, total: progress.nLocations },
    });
    // The panel's <h3> names it: the SVG carries no <title> of its own.
    return toSvg(scene);
  }, [measurement, variant, progress]);
  const percent = progressPercent(progress.nTested, progress.nLocations);
  return (
    <section className="live-panel" aria-label={title} data-testid="live-panel">
      <h3>{title}</h3>
      {standalone && <div className="live-meta" data-testid="live-standalone">{t`Stand-alone run`}</div>}
      {measurement && (
        <>
          <PatientName className="live-patient" patientId={measurement.patientId} />
          <div className="live-meta">
            {measurement.displayName} · {i18n._(eyeNames[measurement.eye])} · {patternLabel[measurement.pattern]}
            {laneName ? ` · ${laneName}` : ""}
          </div>
        </>
      )}
      {gazeCalibration && (
        <div className="live-meta" data-testid="gaze-calibration">
          {i18n._(gazeCalibrationNames[gazeCalibration])}
        </div>
      )}
      {svg && (
        <div
          className="live-plot"
          role="img"
          aria-label={t`${progress.nTested} of ${progress.nLocations} locations tested`}
          // biome-ignore lint/security/noDangerouslySetInnerHtml: our own scene serialised by core/plots (text escaped there), not user HTML
          dangerouslySetInnerHTML={{ __html: svg }}
        />
      )}
      <ul className="live-legend" aria-label={t`Legend`}>
        {(["answered", "notAnswered", "presented"] as const).map((state) => (
          <li key={state}>
            <span className="live-swatch" style={{ background: plotPalette[liveColours[state]] }} aria-hidden="true" />
            {i18n._(legendNames[state])}
          </li>
        ))}
      </ul>
      <ProgressBar percent={percent} label={t`Test progress`} />
    </section>
  );
}
