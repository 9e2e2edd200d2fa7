import "./stages.css";
import { msg } from "@lingui/core/macro";
import { useLingui } from "@lingui/react/macro";
import type { MessageDescriptor } from "@lingui/core";
import type { ResultAnalysis } from "../../core/analytics/result-analysis.ts";
import type {
  FieldStages,
  Gss2Stage,
  HodappCriterion,
  HodappCriterionId,
  HodappLimit,
  HodappStage,
  StageNotApplicableReason,
} from "../../core/analytics/stages/index.ts";

// The field's glaucoma stages (issue 30, core/analytics/stages): Hodapp-Parrish-Anderson with each criterion's value
// and whether it meets the early and the moderate limit, GSS 2, the AGIS and the CIGTS score, each credited; a method
// that does not apply says why in words.

export const hodappNames: Record<HodappStage, MessageDescriptor> = {
  early: msg`Early`,
  moderate: msg`Moderate`,
  severe: msg`Severe`,
};

export const stageReasons: Record<StageNotApplicableReason, MessageDescriptor> = {
  pattern: msg`defined on 24-2 and 30-2 only`,
  screening: msg`a screening measures no thresholds`,
  "missing-locations": msg`a location was not measured`,
  "no-normative-database": msg`no normative database for this pattern`,
};

const criterionNames: Record<HodappCriterionId, MessageDescriptor> = {
  md: msg`MD (Humphrey)`,
  "pd-below-5": msg`PD points below 5 %`,
  "pd-below-1": msg`PD points below 1 %`,
  "central-below-15": msg`Central 5°: points below 15 dB`,
  "central-at-0": msg`Central 5°: points at 0 dB`,
  "central-below-15-hemifields": msg`Central 5°: hemifields with a point below 15 dB`,
};

const relationSymbols: Record<HodappLimit["relation"], string> = { above: ">", "at-least": "≥", below: "<", "at-most": "≤" };

/** A limit as "> −6 dB" or "< 13" (symbols and numbers need no translation). */
const limitText = (l: HodappLimit, id: HodappCriterionId) => `${relationSymbols[l.relation]} ${l.bound}${id === "md" ? " dB" : ""}`;

function LimitCell({ limit, id }: { limit: HodappLimit | null; id: HodappCriterionId }) {
  const { t } = useLingui();
  if (!limit) return <td className="num muted">–</td>;
  return (
    <td className="num" data-met={limit.met}>
      {limitText(limit, id)} <span aria-hidden="true">{limit.met ? "✓" : "✗"}</span>
      <span className="visually-hidden">{limit.met ? t`met` : t`not met`}</span>
    </td>
  );
}

function CriteriaTable({ criteria, points }: { criteria: readonly HodappCriterion[]; points: number }) {
  const { t, i18n } = useLingui();
  const value = (c: HodappCriterion) => (c.id === "md" ? `${c.value.toFixed(2)} dB` : String(c.value));
  return (
    <table className="indices stages-criteria" data-testid="stages-hodapp">
      <caption>
        {t`Hodapp-Parrish-Anderson criteria`}
        <span className="index-note caption-note">
          {points === 52 ? t`Counts over 52 points: the 30-2 limits scaled to 24-2` : t`Counts over ${points} points`}
        </span>
      </caption>
      <thead>
        <tr>
          <th scope="col">{t`Criterion`}</th>
          <th scope="col" className="num">{t`Value`}</th>
          <th scope="col" className="num">
            {i18n._(hodappNames.early)}
          </th>
          <th scope="col" className="num">
            {i18n._(hodappNames.moderate)}
          </th>
        </tr>
      </thead>
      <tbody>
        {criteria.map((c) => (
          <tr key={c.id} data-criterion={c.id}>
            <th scope="row">{i18n._(criterionNames[c.id])}</th>
            <td className="num">{value(c)}</td>
            <LimitCell limit={c.early} id={c.id} />
            <LimitCell limit={c.moderate} id={c.id} />
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The words of one outcome: its stage or score, or "Not applicable: why". */
export function useStageTexts(): (stages: FieldStages) => Record<keyof FieldStages, string> {
  const { t, i18n } = useLingui();
  const notApplicable = (reason: StageNotApplicableReason) => {
    const why = i18n._(stageReasons[reason]);
    return t`Not applicable: ${why}`;
  };
  const gss2 = (stage: Gss2Stage) => (stage === "borderline" ? t`Border-line` : t`Stage ${stage}`);
  return (s) => ({
    hodapp: s.hodapp.applicable ? i18n._(hodappNames[s.hodapp.stage]) : notApplicable(s.hodapp.reason),
    gss2: s.gss2.applicable ? gss2(s.gss2.stage) : notApplicable(s.gss2.reason),
    agis: s.agis.applicable ? `${s.agis.score} / 20` : notApplicable(s.agis.reason),
    cigts: s.cigts.applicable ? `${s.cigts.score.toFixed(1)} / 20` : notApplicable(s.cigts.reason),
  });
}

export function StagesTable({ analysis }: { analysis: ResultAnalysis | null }) {
  const { t, i18n } = useLingui();
  const texts = useStageTexts();
  if (!analysis) return null;
  const stages = analysis.stages;
  const outcomes = [stages.hodapp, stages.gss2, stages.agis, stages.cigts];
  const reasons = new Set(outcomes.map((o) => (o.applicable ? null : o.reason)));
  const [only] = reasons;
  if (reasons.size === 1 && only) {
    const why = i18n._(stageReasons[only]);
    return (
      <p className="muted stages-none" data-testid="stages">
        {t`Glaucoma stage: not applicable, ${why}.`}
      </p>
    );
  }
  const words = texts(stages);
  const rows: Array<{ key: keyof FieldStages; label: string; note: string }> = [
    { key: "hodapp", label: t`Hodapp-Parrish-Anderson`, note: t`Hodapp, Parrish & Anderson 1993` },
    { key: "gss2", label: t`GSS 2`, note: t`Brusini & Filacorda 2006, from Humphrey MD and PSD` },
    { key: "agis", label: t`AGIS score`, note: t`Gaasterland et al. 1994 (AGIS 2)` },
    { key: "cigts", label: t`CIGTS score`, note: t`Musch et al. 1999` },
  ];
  return (
    <div className="stages" data-testid="stages">
      <table className="indices" data-testid="stages-summary">
        <caption>{t`Glaucoma stage`}</caption>
        <tbody>
          {rows.map((r) => (
            <tr key={r.key} data-stage={r.key}>
              <th scope="row">
                <span className="index-label">{r.label}</span>
                <span className="index-note">{r.note}</span>
              </th>
              <td className={stages[r.key].applicable ? "num" : "num wrap"}>{words[r.key]}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {stages.hodapp.applicable && <CriteriaTable criteria={stages.hodapp.criteria} points={stages.hodapp.points} />}
    </div>
  );
}
