import type { Pattern } from "../../model/enums.ts";
import type { ProbabilityLevel } from "../normative/tables.ts";
import { getPattern } from "../patterns.ts";
import { agisScore, type AgisOutcome } from "./agis-score.ts";
import { cigtsScore, type CigtsScore } from "./cigts-score.ts";
import { gss2Stage, type Gss2Outcome, type Gss2Stage } from "./gss2-stage.ts";
import { hodappStage, type HodappOutcome, type HodappStage } from "./hodapp-stage.ts";
import { stageNotApplicable, type StageNotApplicable, type StageNotApplicableReason } from "./outcome.ts";
import { isStagedPattern } from "./staging-grid.ts";

/**
 * The glaucoma stages of one field (issue 30): Hodapp-Parrish-Anderson with each criterion, GSS 2, the AGIS score and
 * the CIGTS score; each "not applicable" with its reason where its definition does not reach. Each file credits its
 * paper; core/analytics/README.md ("Stages") lists our choices.
 */
export interface FieldStages {
  readonly hodapp: HodappOutcome;
  readonly gss2: Gss2Outcome;
  readonly agis: AgisOutcome;
  /** Wider than cigtsScore's own outcome: here a screening or missing normals also say so. */
  readonly cigts: CigtsScore | StageNotApplicable;
}

/** What the stages read of an analysed field (ResultAnalysis.normative's parts; null without a normative database). */
export interface StageDeviations {
  readonly td: ReadonlyArray<number | null>;
  readonly tdp: ReadonlyArray<ProbabilityLevel | null>;
  readonly pdp: ReadonlyArray<ProbabilityLevel | null>;
  /** Humphrey STATPAC's MD and PSD (weights 1/SD^2): HPA and GSS 2 were defined on them. */
  readonly humphrey: { readonly md: number; readonly psd: number };
}

export interface StageInput {
  readonly pattern: Pattern;
  /** True for a supra-threshold screening strategy (core/analytics/seen.ts `isScreening`). */
  readonly screening?: boolean;
  readonly thresholds: ReadonlyArray<number | null>;
  readonly deviations: StageDeviations | null;
}

/** Why no method applies, checked in this order: the pattern, a screening, a location not measured, no normative database. */
function reasonNotStaged({ pattern, screening, thresholds, deviations }: StageInput): StageNotApplicableReason | null {
  if (!isStagedPattern(pattern)) return "pattern";
  if (screening) return "screening";
  const blind = getPattern(pattern).blindSpotIndices;
  for (let i = 0; i < thresholds.length; i++) {
    const t = thresholds[i];
    if ((t === null || t === undefined || Number.isNaN(t)) && !blind.includes(i)) return "missing-locations";
  }
  if (!deviations) return "no-normative-database";
  return null;
}

export function fieldStages(input: StageInput): FieldStages {
  const reason = reasonNotStaged(input);
  if (reason !== null || !input.deviations) {
    const none = stageNotApplicable(reason ?? "no-normative-database");
    return { hodapp: none, gss2: none, agis: none, cigts: none };
  }
  const { pattern, thresholds } = input;
  const { td, tdp, pdp, humphrey } = input.deviations;
  return {
    hodapp: hodappStage({ pattern, thresholds, pdp, md: humphrey.md }),
    gss2: gss2Stage(humphrey.md, humphrey.psd),
    agis: agisScore(td, pattern),
    cigts: cigtsScore(tdp, pattern),
  };
}

/** The columns `isopter export --stages` appends to the visualFields CSV and `isopter analyse --stages` prints. */
export const STAGE_COLUMNS = ["hpa", "gss2", "agis", "cigts"] as const;

/** The stages as short codes for tables and CSV columns: HPA's stage, GSS 2's, the two scores; null where not applicable. */
export interface StageCodes {
  readonly hpa: HodappStage | null;
  readonly gss2: Gss2Stage | null;
  readonly agis: number | null;
  readonly cigts: number | null;
}

export function stageCodes(s: FieldStages): StageCodes {
  return {
    hpa: s.hodapp.applicable ? s.hodapp.stage : null,
    gss2: s.gss2.applicable ? s.gss2.stage : null,
    agis: s.agis.applicable ? s.agis.score : null,
    cigts: s.cigts.applicable ? s.cigts.score : null,
  };
}

/**
 * The stages as analyseResult carries them: worked out on first read and kept. Staging costs about 40 % of the rest of a
 * field's analysis (npm run bench:analytics) and most readers (charts, series, the CLI's rows) never look, so the
 * 100,000 fields a second that bench aims at stay within reach. JSON.stringify writes the four outcomes (toJSON).
 */
export function lazyFieldStages(input: StageInput): FieldStages {
  return new LazyFieldStages(input);
}

class LazyFieldStages implements FieldStages {
  #input: StageInput | null;
  #stages: FieldStages | null = null;
  constructor(input: StageInput) {
    this.#input = input;
  }
  #all(): FieldStages {
    if (this.#stages === null) {
      this.#stages = fieldStages(this.#input!);
      this.#input = null;
    }
    return this.#stages;
  }
  get hodapp() {
    return this.#all().hodapp;
  }
  get gss2() {
    return this.#all().gss2;
  }
  get agis() {
    return this.#all().agis;
  }
  get cigts() {
    return this.#all().cigts;
  }
  toJSON(): FieldStages {
    return this.#all();
  }
}

export { agisScore, agisCriterion, agisSector, AGIS_MAX_SCORE } from "./agis-score.ts";
export type { AgisOutcome, AgisScore } from "./agis-score.ts";
export { cigtsScore, cigtsWeight, cigtsNeighbours, CIGTS_MAX_SCORE, CIGTS_DIVISOR } from "./cigts-score.ts";
export type { CigtsOutcome, CigtsScore, CigtsWeight } from "./cigts-score.ts";
export { gss2Stage, gss2Boundary, GSS2_STAGES, GSS2_CURVES } from "./gss2-stage.ts";
export type { Gss2Outcome, Gss2Result, Gss2Stage } from "./gss2-stage.ts";
export { hodappStage, HODAPP_STAGES } from "./hodapp-stage.ts";
export type { HodappOutcome, HodappResult, HodappStage, HodappCriterion, HodappCriterionId, HodappLimit } from "./hodapp-stage.ts";
export { STAGE_NOT_APPLICABLE_REASONS } from "./outcome.ts";
export type { StageNotApplicable, StageNotApplicableReason } from "./outcome.ts";
export { STAGED_PATTERNS, grid24 } from "./staging-grid.ts";
