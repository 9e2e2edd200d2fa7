// The printed page's line of glaucoma stages (issue 30): Hodapp-Parrish-Anderson, GSS 2, the AGIS and the CIGTS score
// of the field (core/analytics/stages), or why they do not apply. Part of the header (print-header.ts).

import type { FieldStages, Gss2Stage, HodappStage, StageNotApplicableReason } from "../analytics/stages/index.ts";
import { message, type Message } from "./scene.ts";

const hodappMessages: Record<HodappStage, Message> = {
  early: message("plots.print.stages.early", "early"),
  moderate: message("plots.print.stages.moderate", "moderate"),
  severe: message("plots.print.stages.severe", "severe"),
};
export const stageReasonMessages: Record<StageNotApplicableReason, Message> = {
  pattern: message("plots.print.stages.reason.pattern", "defined on 24-2 and 30-2 only"),
  screening: message("plots.print.stages.reason.screening", "a screening measures no thresholds"),
  "missing-locations": message("plots.print.stages.reason.missing", "a location was not measured"),
  "no-normative-database": message("plots.print.stages.reason.noNormals", "no normative database for this pattern"),
};
const notApplicable = message("plots.print.stages.na", "n/a");
const gss2Text = (stage: Gss2Stage): Message =>
  stage === "borderline"
    ? message("plots.print.stages.borderline", "border-line")
    : message("plots.print.stages.gss2Stage", "stage {stage}", { stage });

/**
 * The stages in one line, "HPA moderate · GSS 2 stage 2 · AGIS 4 / 20 · CIGTS 3.1 / 20", or "not applicable: why" when
 * none applies for one reason; null on patterns the methods are not defined for (10-2, G, screening grids, Esterman),
 * where the line would only say so.
 */
export function printStagesLine(stages: FieldStages): Message | null {
  const outcomes = [stages.hodapp, stages.gss2, stages.agis, stages.cigts];
  const reasons = new Set(outcomes.map((o) => (o.applicable ? null : o.reason)));
  const [only] = reasons;
  if (reasons.size === 1 && only === "pattern") return null;
  if (reasons.size === 1 && only)
    return message("plots.print.stages.notApplicable", "not applicable: {reason}", { reason: stageReasonMessages[only] });
  const { hodapp, gss2, agis, cigts } = stages;
  return message("plots.print.stages.value", "HPA {hodapp} · GSS 2 {gss2} · AGIS {agis} · CIGTS {cigts}", {
    hodapp: hodapp.applicable ? hodappMessages[hodapp.stage] : notApplicable,
    gss2: gss2.applicable ? gss2Text(gss2.stage) : notApplicable,
    agis: agis.applicable ? `${agis.score} / 20` : notApplicable,
    cigts: cigts.applicable ? `${cigts.score.toFixed(1)} / 20` : notApplicable,
  });
}
