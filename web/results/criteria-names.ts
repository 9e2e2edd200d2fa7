import { msg } from "@lingui/core/macro";
import type { MessageDescriptor } from "@lingui/core";
import type { MethodId, NotApplicableReason, Verdict } from "../../core/analytics/progression/criteria/verdict.ts";

// How the progression view, its print and its tests name each series criterion, its verdict (vfprogression's words)
// and why a criterion has none (issue 30). Method names are the papers' and devices' names.

export const methodNames: Record<MethodId, MessageDescriptor> = {
  events: msg`Events (GPA)`,
  poplr: msg`PoPLR`,
  "md-slope": msg`MD slope`,
  "vfi-trend": msg`VFI trend (GPA rules)`,
  cigts: msg`CIGTS`,
  "plr-nouri-2012": msg`PLR (Nouri-Mahdavi 2012)`,
  "plr-three-omitting": msg`PLR, three-omitting`,
  "schell-2014": msg`Schell 2014`,
  "cluster-trend": msg`Cluster trend (Octopus)`,
};

export const verdictNames: Record<Verdict, MessageDescriptor> = {
  worsening: msg`worsening`,
  stable: msg`stable`,
  improving: msg`improving`,
};

export const notApplicableNames: Record<NotApplicableReason, MessageDescriptor> = {
  "too-few-visits": msg`not applicable: too few results`,
  "too-short-follow-up": msg`not applicable: follow-up too short`,
  pattern: msg`not applicable: defined on other patterns`,
  "missing-locations": msg`not applicable: locations missing`,
  "no-normative-database": msg`not applicable: no normative database`,
  "mixed-patterns": msg`not applicable: mixed patterns`,
  "not-shown-by-rule": msg`not shown: its rules say not to`,
};
