import { msg } from "@lingui/core/macro";
import type { MessageDescriptor } from "@lingui/core";
import type { MethodId } from "../../core/analytics/progression/criteria/verdict.ts";

// The series criteria's names as Lingui messages, for pages that render them outside a plot (the Support page's
// accuracy tables); the progression view and the print name them through core/plots/criteria-text.ts, with the same
// English words, so one translation serves both.

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
