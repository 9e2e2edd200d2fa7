// The words of the progression criteria (issue 30), once for the progression view, the print and their tests: each
// method's name, its verdict in vfprogression's words (worsening, stable, improving) or why it has none, its key figure,
// and the eye's one reading ("worsening by 4 of 6 methods; the loss is diffuse, which events on PD do not see").

import type {
  CigtsProgressionDetail,
  ClusterTrendDetail,
  EventsDetail,
  EyeReading,
  MdSlopeDetail,
  MethodId,
  MethodOutcome,
  NotApplicableReason,
  PlrDetail,
  SeriesCriteria,
  PoplrDetail,
  Verdict,
  VfiTrendDetail,
} from "../analytics/progression/criteria/index.ts";
import { message, type Message } from "./scene.ts";

export const methodMessages: Record<MethodId, Message> = {
  events: message("plots.criteria.method.events", "Events (GPA)"),
  poplr: message("plots.criteria.method.poplr", "PoPLR"),
  "md-slope": message("plots.criteria.method.mdSlope", "MD slope"),
  "vfi-trend": message("plots.criteria.method.vfiTrend", "VFI trend (GPA rules)"),
  cigts: message("plots.criteria.method.cigts", "CIGTS"),
  "plr-nouri-2012": message("plots.criteria.method.plrNouri", "PLR (Nouri-Mahdavi 2012)"),
  "plr-three-omitting": message("plots.criteria.method.plrThreeOmitting", "PLR, three-omitting"),
  "schell-2014": message("plots.criteria.method.schell", "Schell 2014"),
  "cluster-trend": message("plots.criteria.method.clusterTrend", "Cluster trend (Octopus)"),
};

/** The paper or device each method follows, for the view's credits. */
export const methodSources: Record<MethodId, string> = {
  events: "Zeiss HFA Guided Progression Analysis",
  poplr: "O'Leary, Chauhan & Artes, IOVS 2012",
  "md-slope": "accounts seed §5",
  "vfi-trend": "Bengtsson & Heijl, AJO 2008; HFA GPA",
  cigts: "Musch et al., Ophthalmology 1999",
  "plr-nouri-2012": "Nouri-Mahdavi et al., IOVS 2012",
  "plr-three-omitting": "Gardiner & Crabb, IOVS 2002",
  "schell-2014": "Schell et al., Ophthalmology 2014",
  "cluster-trend": "Haag-Streit EyeSuite; Naghizadeh & Holló 2014",
};

export const verdictMessages: Record<Verdict, Message> = {
  worsening: message("plots.criteria.verdict.worsening", "worsening"),
  stable: message("plots.criteria.verdict.stable", "stable"),
  improving: message("plots.criteria.verdict.improving", "improving"),
};

export const reasonMessages: Record<NotApplicableReason, Message> = {
  "too-few-visits": message("plots.criteria.reason.tooFewVisits", "too few results"),
  "too-short-follow-up": message("plots.criteria.reason.tooShort", "follow-up too short"),
  pattern: message("plots.criteria.reason.pattern", "not defined for this pattern"),
  "missing-locations": message("plots.criteria.reason.missing", "a location was not measured"),
  "no-normative-database": message("plots.criteria.reason.noNormals", "no normative database"),
  "mixed-patterns": message("plots.criteria.reason.mixed", "results of several patterns"),
  "not-shown-by-rule": message("plots.criteria.reason.byRule", "not shown by its rules"),
};

/** "not applicable: too few results". */
export const notApplicableMessage = (reason: NotApplicableReason): Message =>
  message("plots.criteria.notApplicable", "not applicable: {reason}", { reason: reasonMessages[reason] });

/** "p = 1.2 %", or "p < 0.1 %" below a thousandth. */
const pValue = (p: number): Message =>
  p < 0.001 ? message("plots.criteria.pBelow", "p < 0.1 %") : message("plots.criteria.figure.p", "p = {p} %", { p: (100 * p).toFixed(1) });
const signed = (v: number, digits = 1) => `${v > 0 ? "+" : ""}${v.toFixed(digits)}`;

/** The figure behind a verdict, e.g. "p = 0.6 %" or "-0.8 dB/year (p = 1.2 %)"; null when the verdict says it all. */
export function keyFigure(outcome: MethodOutcome): Message | null {
  if (!outcome.applicable) return null;
  switch (outcome.method) {
    case "events": {
      const d = outcome.detail as EventsDetail;
      return message("plots.criteria.figure.events", "{twice} locations on 2 tests, {thrice} on 3", {
        twice: d.twice.length,
        thrice: d.thrice.length,
      });
    }
    case "poplr":
      return pValue((outcome.detail as PoplrDetail).p);
    case "md-slope": {
      const d = outcome.detail as MdSlopeDetail;
      return message("plots.criteria.figure.mdSlope", "{slope} dB/year ({p})", { slope: signed(d.slopePerYear, 2), p: pValue(d.p) });
    }
    case "vfi-trend": {
      const d = outcome.detail as VfiTrendDetail;
      const last = d.projection.at(-1);
      return last
        ? message("plots.criteria.figure.vfi", "{slope} %/year; VFI {vfi} % in {years} years ({lower}-{upper} %)", {
            slope: signed(d.slopePerYear),
            vfi: last.vfi.toFixed(0),
            years: last.yearsAhead,
            lower: Math.max(0, last.lower).toFixed(0),
            upper: Math.min(100, last.upper).toFixed(0),
          })
        : message("plots.criteria.figure.vfiRate", "{slope} %/year", { slope: signed(d.slopePerYear) });
    }
    case "cigts":
    case "schell-2014": {
      const d = outcome.detail as CigtsProgressionDetail;
      const last = d.loss.at(-1) ?? 0;
      return message("plots.criteria.figure.change", "last {change} against the baseline {baseline} (limit {limit})", {
        change: signed(outcome.method === "schell-2014" ? -last : last),
        baseline: d.baseline.toFixed(1),
        limit: outcome.method === "schell-2014" ? `-${d.threshold} dB` : `+${d.threshold}`,
      });
    }
    case "plr-nouri-2012":
    case "plr-three-omitting": {
      const d = outcome.detail as PlrDetail;
      return message("plots.criteria.figure.plr", "{worse} locations worsening, {better} improving", {
        worse: d.worseningLocations.length,
        better: d.improvingLocations.length,
      });
    }
    case "cluster-trend": {
      const d = outcome.detail as ClusterTrendDetail;
      return message("plots.criteria.figure.clusters", "{worse} of {count} clusters worsening", {
        worse: d.worseningClusters,
        count: d.clusters.length,
      });
    }
  }
}

/** The eye's one reading, e.g. "worsening by 4 of 6 methods; the loss is diffuse, which events on PD do not see". */
export function readingMessage(r: EyeReading, behind: Message | null = null): Message {
  const { counts } = r;
  const verdict: Message =
    r.basis === "too-few-methods"
      ? message("plots.criteria.reading.tooFew", "no reading: {applicable} of {methods} methods apply", {
          applicable: counts.applicable,
          methods: counts.methods,
        })
      : r.basis === "no-majority"
        ? message(
            "plots.criteria.reading.split",
            "no majority: {worsening} worsening, {stable} stable, {improving} improving of {applicable}",
            {
              worsening: counts.worsening,
              stable: counts.stable,
              improving: counts.improving,
              applicable: counts.applicable,
            },
          )
        : message("plots.criteria.reading.majority", "{verdict} by {count} of {applicable} methods", {
            verdict: verdictMessages[r.verdict!],
            count: counts[r.verdict!],
            applicable: counts.applicable,
          });
  const head = behind ? message("plots.criteria.reading.behind", "{verdict} ({methods})", { verdict, methods: behind }) : verdict;
  if (r.pattern === null) return head;
  const loss =
    r.pattern === "localised"
      ? message("plots.criteria.reading.localised", "the loss is localised")
      : r.unseenBy.length > 0
        ? message("plots.criteria.reading.diffuseUnseen", "the loss is diffuse, which events on PD do not see")
        : message("plots.criteria.reading.diffuse", "the loss is diffuse");
  return message("plots.criteria.reading.withLoss", "{head}; {loss}", { head, loss });
}

/**
 * The criteria in one printed line: the reading, then the methods behind its verdict, e.g. "worsening by 5 of 7
 * methods (PoPLR, MD slope, ...); the loss is diffuse, which events on PD do not see". Null when no method applies.
 */
export function criteriaLine(criteria: SeriesCriteria): Message | null {
  const r = criteria.reading;
  if (r.counts.applicable === 0) return null;
  const behind = r.verdict === null ? [] : criteria.methods.filter((m) => m.applicable && m.verdict === r.verdict);
  if (behind.length === 0) return readingMessage(r);
  const names: Record<string, Message> = {};
  behind.forEach((m, k) => {
    names[`m${k}`] = methodMessages[m.method];
  });
  // The list has no words of its own: no catalogue entry, its default joins the translated names.
  const list = message(`plots.criteria.list.${behind.length}`, behind.map((_, k) => `{m${k}}`).join(", "), names);
  return readingMessage(r, list);
}
