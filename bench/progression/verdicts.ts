// What every method says of a cohort eye at each point of its follow-up: the series criteria (core/analytics/
// progression/criteria) run on the visits up to that point, as a clinic would read the series at that visit.
import { METHOD_IDS, type MethodOutcome, seriesCriteria } from "../../core/analytics/progression/criteria/index.ts";
import type { CohortVisit } from "../../simulator/perimetry/cohorts/simulate.ts";
import { COHORT_PATTERN } from "../../simulator/perimetry/cohorts/true-field.ts";

/** A verdict as one byte: per method and series length. */
export const Code = { notComputed: 0, notApplicable: 1, stable: 2, worsening: 3, improving: 4 } as const;
export type Code = (typeof Code)[keyof typeof Code];

const codeOf = (m: MethodOutcome): Code => (m.applicable ? Code[m.verdict] : Code.notApplicable);

export interface EyeVerdicts {
  /** visits per series (the longest series looked at). */
  readonly visits: number;
  /** [method * visits + (n - 1)]: the verdict on the first n visits, Code.notComputed where not looked at. */
  readonly codes: Uint8Array;
}

export const verdictAt = (v: EyeVerdicts, method: number, n: number): Code => v.codes[method * v.visits + n - 1] as Code;

/**
 * The methods' verdicts on the first n visits for each n of `lengths` (ascending). Once every method has said
 * worsening, the further lengths are skipped but those in `always`: the time to detection needs only the first.
 */
export const eyeVerdicts = (
  visits: readonly CohortVisit[],
  lengths: readonly number[],
  options: { nperm?: number; always?: readonly number[] } = {},
): EyeVerdicts => {
  const codes = new Uint8Array(METHOD_IDS.length * visits.length);
  const detected = new Set<number>();
  for (const n of lengths) {
    if (detected.size === METHOD_IDS.length && !options.always?.includes(n)) continue;
    const { methods } = seriesCriteria(COHORT_PATTERN, visits.slice(0, n), options.nperm === undefined ? {} : { nperm: options.nperm });
    methods.forEach((m, k) => {
      const code = codeOf(m);
      codes[k * visits.length + n - 1] = code;
      if (code === Code.worsening) detected.add(k);
    });
  }
  return { visits: visits.length, codes };
};
