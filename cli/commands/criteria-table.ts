import type { SeriesOutput } from "../../core/analytics/analyse-csv.ts";
import type { MethodId, MethodOutcome, NotApplicableReason } from "../../core/analytics/progression/criteria/index.ts";
import { readingMessage } from "../../core/plots/criteria-text.ts";
import { resolveText } from "../../core/plots/message.ts";
import { formatTable } from "../table.ts";

// `isopter analyse --series`: the progression criteria of each id and eye (issue 30) under the series table, one
// column per method in the criteria's order with its verdict in vfprogression's words, or "n/a" and why, and the eye's
// reading in the view's and the print's words (core/plots/criteria-text.ts, English). The cells' short words are the
// CLI's own; --json carries the data.

const headers: Record<MethodId, string> = {
  events: "Events",
  poplr: "PoPLR",
  "md-slope": "MD slope",
  "vfi-trend": "VFI trend",
  cigts: "CIGTS",
  "plr-nouri-2012": "PLR 2012",
  "plr-three-omitting": "PLR 3-omit",
  "schell-2014": "Schell 2014",
  "cluster-trend": "Clusters",
};

const reasons: Record<NotApplicableReason, string> = {
  "too-few-visits": "n/a: few visits",
  "too-short-follow-up": "n/a: short",
  pattern: "n/a: pattern",
  "missing-locations": "n/a: missing",
  "no-normative-database": "n/a: no normals",
  "mixed-patterns": "n/a: mixed",
  "not-shown-by-rule": "n/a: by rule",
};

const cell = (m: MethodOutcome) => (m.applicable ? m.verdict : reasons[m.reason]);

export function criteriaTable(series: readonly SeriesOutput[]): string {
  const rows = series.flatMap((s) => {
    const c = s.progression.criteria;
    return c ? [[s.id, s.eye, ...c.methods.map(cell), resolveText(readingMessage(c.reading))]] : [];
  });
  if (rows.length === 0) return "";
  const ids = series.find((s) => s.progression.criteria)!.progression.criteria!.methods.map((m) => m.method);
  return (
    "\nProgression criteria (issue 30): worsening, stable or improving; n/a: not applicable, and why\n" +
    formatTable(["id", "eye", ...ids.map((id) => headers[id]), "reading"], rows, [
      "left",
      "left",
      ...ids.map(() => "left" as const),
      "left",
    ])
  );
}
