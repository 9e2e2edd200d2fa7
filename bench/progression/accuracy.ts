// The figures of npm run bench:progression from every eye's verdicts (verdicts.ts). Definitions (ours, stated on the
// Support page): a method's verdict at a visit is its verdict on the series up to that visit; an eye it cannot judge
// there (not applicable) counts as not called worsening, and the share it judged is reported beside.
//   specificity over n visits = share of stable eyes not called worsening on their first n visits;
//   sensitivity at t years = share of progressing eyes called worsening on the visits up to t years;
//   time to detection = years to the first visit called worsening; its median over all the cohort's eyes, eyes never
//   called counting as later than the follow-up (no median when fewer than half are called).
import { METHOD_IDS, type MethodId } from "../../core/analytics/progression/criteria/index.ts";
import { percentile } from "../figures.ts";
import { Code, type EyeVerdicts, verdictAt } from "./verdicts.ts";

export interface Rate {
  /** Shares of the cohort's eyes (0-1). */
  readonly worsening: number;
  readonly improving: number;
  /** Share the method could judge (not "not applicable"). */
  readonly judged: number;
}

export interface Specificity {
  readonly visits5: Rate;
  readonly visits10: Rate;
}

export interface Sensitivity {
  readonly years2: Rate;
  readonly years3: Rate;
  readonly years5: Rate;
  /** null when fewer than half the eyes are called worsening within the follow-up. */
  readonly medianYears: number | null;
}

/** The series length that ends at `years` with a visit every `intervalYears`. */
export const visitsAt = (years: number, intervalYears: number): number => Math.round(years / intervalYears) + 1;

/** The series lengths each kind of cohort is read at. */
export const lengthsFor = (stable: boolean, visits: number): number[] =>
  stable ? [5, 10] : Array.from({ length: visits - 2 }, (_, k) => k + 3);

const rate = (eyes: readonly EyeVerdicts[], method: number, n: number): Rate => {
  let worsening = 0,
    improving = 0,
    judged = 0;
  for (const e of eyes) {
    const c = verdictAt(e, method, n);
    if (c === Code.notComputed) throw new Error(`verdict of method ${METHOD_IDS[method]} at ${n} visits was not computed`);
    if (c !== Code.notApplicable) judged++;
    if (c === Code.worsening) worsening++;
    if (c === Code.improving) improving++;
  }
  const of = Math.max(1, eyes.length);
  return { worsening: worsening / of, improving: improving / of, judged: judged / of };
};

export const specificity = (eyes: readonly EyeVerdicts[]): Record<MethodId, Specificity> =>
  Object.fromEntries(METHOD_IDS.map((id, m) => [id, { visits5: rate(eyes, m, 5), visits10: rate(eyes, m, 10) }])) as Record<
    MethodId,
    Specificity
  >;

export const sensitivity = (eyes: readonly EyeVerdicts[], intervalYears: number): Record<MethodId, Sensitivity> =>
  Object.fromEntries(
    METHOD_IDS.map((id, m) => {
      const firstYears = eyes
        .map((e) => {
          for (let n = 3; n <= e.visits; n++) if (verdictAt(e, m, n) === Code.worsening) return (n - 1) * intervalYears;
          return Number.POSITIVE_INFINITY;
        })
        .sort((a, b) => a - b);
      const median = percentile(firstYears, 50);
      const at = (years: number) => rate(eyes, m, visitsAt(years, intervalYears));
      return [id, { years2: at(2), years3: at(3), years5: at(5), medianYears: Number.isFinite(median) ? median : null }];
    }),
  ) as Record<MethodId, Sensitivity>;
