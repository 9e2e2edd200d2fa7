import { plural } from "@lingui/core/macro";
import { useLingui } from "@lingui/react/macro";
import type { FlagKind, FlagReason } from "../../../core/home/triage.ts";
import type { Verdict } from "../../../core/analytics/progression/criteria/verdict.ts";
import type { EventStatus } from "../../../core/analytics/progression/events.ts";
import { methodMessages } from "../../../core/plots/criteria-text.ts";
import { resolveText } from "../../../core/plots/message.ts";
import { plotTranslate } from "../../results/plot-messages.ts";

// The review queue's flags in words (issue 31 §2). core/home's triage gives each flag its reasons as codes and
// figures; here each reason says which limit, which median, which criterion: what the clinician needs to decide.

const percent = (share: number) => Math.round(share * 100);
const dB = (x: number) => x.toFixed(2);

/** The flag kinds' names (FLAG_ORDER). */
export function useFlagNames(): Record<FlagKind, string> {
  const { t } = useLingui();
  return { unreliable: t`Unreliable`, outlier: t`Outlier`, progression: t`Progression`, missed: t`Missed sessions` };
}

/** One reason of a flag as a sentence with its figures. */
export function useReasonWords(): (reason: FlagReason) => string {
  const { t, i18n } = useLingui();
  // The criteria's names as the result page shows them (core/plots), without the page's plots.
  const methodName = (m: keyof typeof methodMessages) => resolveText(methodMessages[m], plotTranslate(i18n));
  const verdicts: Record<Verdict | "not-applicable", string> = {
    worsening: t`worsening`,
    stable: t`stable`,
    improving: t`improving`,
    "not-applicable": t`not applicable`,
  };
  const events: Record<EventStatus, string> = {
    none: t`No progression`,
    "possible progression": t`Possible progression`,
    "likely progression": t`Likely progression`,
  };
  return (r) => {
    switch (r.code) {
      case "false-positives": {
        const [rate, limit] = [percent(r.rate), percent(r.limit)];
        return t`False positives ${rate} % (limit ${limit} %)`;
      }
      case "false-negatives": {
        const [rate, limit] = [percent(r.rate), percent(r.limit)];
        return t`False negatives ${rate} % (limit ${limit} %)`;
      }
      case "fixation-losses": {
        const [rate, limit] = [percent(r.rate), percent(r.limit)];
        return t`Fixation losses ${rate} % (limit ${limit} %)`;
      }
      case "gaze-off-target": {
        const [share, limit, samples] = [percent(r.share), percent(r.limit), r.samples];
        return t`Gaze off target ${share} % of ${samples} samples (limit ${limit} %)`;
      }
      case "gaze-lost": {
        const [share, limit, samples] = [percent(r.share), percent(r.limit), r.samples];
        return t`Gaze lost ${share} % of ${samples} samples (limit ${limit} %)`;
      }
      case "md-from-median": {
        const [md, median, difference, limit, results] = [dB(r.md), dB(r.median), dB(r.difference), dB(r.limit), r.results];
        return t`MD ${md} dB against a median of ${median} dB over the last ${results} results (${difference} dB, limit ${limit} dB)`;
      }
      case "new-cluster": {
        const locations = r.locations.length;
        return t`New cluster of ${locations} defective locations`;
      }
      case "progression-event": {
        const [now, before] = [events[r.status], r.previous === null ? t`none` : events[r.previous]];
        return t`Event analysis: ${now} (before: ${before})`;
      }
      case "criterion-worsening": {
        const [method, before] = [methodName(r.method), verdicts[r.previous]];
        return t`${method} turned to worsening (before: ${before})`;
      }
      case "missed-sessions": {
        const sessions = r.sessions;
        return plural(sessions, { one: "One session missed", other: "# sessions missed in a row" });
      }
    }
  };
}
