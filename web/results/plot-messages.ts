import { msg } from "@lingui/core/macro";
import type { I18n, MessageDescriptor } from "@lingui/core";
import type { Translate } from "../../core/plots/message.ts";

// core/plots names its texts by message id ("plots.gaze.title") with an English default. Lingui extracts messages
// from web/ only, so each id is listed here once as a Lingui message: the catalogs then carry them, and the plots
// speak the interface language. An id missing here (or a catalog without it) falls back to core's English default.

export const plotMessages: Readonly<Record<string, MessageDescriptor>> = {
  "plots.amsler.abnormal": msg({ message: "Abnormal: {kind}" }),
  "plots.amsler.kind.missing": msg`missing areas`,
  "plots.amsler.kind.notSure": msg`not sure`,
  "plots.amsler.kind.wavy": msg`wavy lines`,
  "plots.amsler.normal": msg`Normal`,
  "plots.amsler.title": msg`Amsler grid`,
  "plots.bebie.defect": msg`Defect (dB)`,
  "plots.bebie.rank": msg`Rank`,
  "plots.bebie.title": msg`Cumulative defect curve (Bebie)`,
  "plots.esterman.count": msg({ message: "{seen} of {total} seen" }),
  "plots.esterman.missed": msg`not seen`,
  "plots.esterman.score": msg({ message: "Esterman score: {score} %" }),
  "plots.esterman.seen": msg`seen`,
  "plots.esterman.title": msg`Esterman binocular`,
  "plots.gaze.distance": msg`Distance`,
  "plots.gaze.notMeasured": msg`could not measure`,
  "plots.gaze.printExceeded": msg({ message: "Gaze chart not printed: {count} samples exceed the print limit of {limit}. See it on screen." }),
  "plots.gaze.title": msg`Gaze tracking`,
  "plots.humphrey.patternDeviation": msg`Pattern deviation`,
  "plots.humphrey.patternDeviationProbability": msg`Pattern deviation probability`,
  "plots.humphrey.thresholds": msg`Threshold (dB)`,
  "plots.humphrey.totalDeviation": msg`Total deviation`,
  "plots.humphrey.totalDeviationProbability": msg`Total deviation probability`,
  "plots.legend.below": msg({ message: "< {percent} %" }),
  "plots.legend.probability": msg`Probability`,
  "plots.legend.thresholdBands": msg`Threshold (dB)`,
  "plots.legend.value": msg`dB`,
  "plots.live.answered": msg`Answered`,
  "plots.live.notAnswered": msg`Not answered`,
  "plots.live.presented": msg`Presented`,
  "plots.live.title.esterman": msg`Live measurement: Esterman`,
  "plots.live.title.supra": msg`Live measurement: supra-threshold`,
  "plots.live.title.threshold": msg`Live measurement`,
  "plots.octopus.difference": msg`Difference (dB)`,
  "plots.octopus.grayscale": msg`Greyscale`,
  "plots.octopus.loss": msg`Comparison (defects, dB)`,
  "plots.octopus.numerical": msg`Values (dB)`,
  "plots.octopus.thresholds": msg`Thresholds (dB)`,
  "plots.progression.empty": msg`No valid, reliable 24-2 or G results in this period`,
  "plots.progression.filter.12m": msg`12 months`,
  "plots.progression.filter.1d": msg`1 day`,
  "plots.progression.filter.1m": msg`1 month`,
  "plots.progression.filter.1w": msg`1 week`,
  "plots.progression.filter.all": msg`All`,
  "plots.progression.leftEye": msg`Left eye (OS)`,
  "plots.progression.meanDefect": msg`Mean defect (dB)`,
  "plots.progression.rightEye": msg`Right eye (OD)`,
  "plots.progression.slope": msg({ message: "{slope} dB/year" }),
  "plots.progression.title": msg`Progression of mean defect`,
  "plots.progression.noSlope.results": msg`No slope: it needs at least 3 results`,
  "plots.progression.noSlope.span": msg`No slope: the results span less than 6 months`,
  "plots.progressionMap.title": msg`TD slope (dB/year) and events`,
  "plots.screening.seen": msg({ message: "Seen: {percent} %" }),
  "plots.screening.title": msg`Screening: seen and not seen`,
};

/**
 * core/plots' Translate over a Lingui instance. A message the active catalog lacks (not extracted yet) reads in
 * core's English default rather than as a hashed id.
 */
export function plotTranslate(i18n: I18n, table: Readonly<Record<string, MessageDescriptor>> = plotMessages): Translate {
  return (m) => {
    const descriptor = table[m.id];
    if (!descriptor || !(descriptor.id in (i18n.messages ?? {}))) return undefined;
    return i18n._(descriptor.id, m.values as Record<string, unknown> | undefined);
  };
}
