import type { LocationVector } from "../normative/tables.ts";

/**
 * GPA-style event analysis (Zeiss Guided Progression Analysis; shared/design/analytics.md "Progression"):
 * the baseline is the mean PD of two baseline tests; a follow-up location deteriorates when its PD falls below the
 * baseline by more than the 5 % test-retest limit; "3+ such points on 2 consecutive tests = possible progression,
 * on 3 = likely progression" (the same locations on each test).
 *
 * No test-retest data ship with the project, so the 5 % limit is modelled: the SD of one measurement at sensitivity s
 * follows Henson et al. (IOVS 2000), sigma(s) = min(6, exp(-0.081 s + 3.27)); the change "follow-up minus the mean
 * of two baselines" then has SD sigma * sqrt(1 + 1/2), and the one-sided 5 % limit is -1.645 times that.
 */
export const HENSON = { a: -0.081, b: 3.27, max: 6 } as const;
const Z_05 = 1.6448536269514722;

export function testRetestSd(sensitivity: number): number {
  return Math.min(HENSON.max, Math.exp(HENSON.a * Math.max(0, sensitivity) + HENSON.b));
}

/** The 5 % lower limit of change from a two-test baseline at a baseline sensitivity. */
export function deteriorationLimit(baselineSensitivity: number): number {
  return -Z_05 * testRetestSd(baselineSensitivity) * Math.sqrt(1.5);
}

export type EventStatus = "none" | "possible progression" | "likely progression";

export interface EventVisit {
  readonly sensitivities: LocationVector;
  readonly pd: LocationVector;
}

export interface EventAnalysis {
  /** Per follow-up visit (from the third visit on): indices of deteriorating locations. */
  readonly flagged: number[][];
  /** Per follow-up visit: locations flagged on this and the previous follow-up / on this and the two previous. */
  readonly repeated2: number[][];
  readonly repeated3: number[][];
  readonly status: EventStatus[];
  /** The status at the last visit. */
  readonly current: EventStatus;
}

/** Event analysis over visits in date order; the first two are the baseline. */
export function eventAnalysis(visits: readonly EventVisit[], minPoints = 3): EventAnalysis {
  if (visits.length < 3) return { flagged: [], repeated2: [], repeated3: [], status: [], current: "none" };
  const [b1, b2] = [visits[0]!, visits[1]!];
  const nloc = b1.pd.length;
  const basePd: Array<number | null> = [],
    baseSens: Array<number | null> = [];
  for (let i = 0; i < nloc; i++) {
    const p1 = b1.pd[i],
      p2 = b2.pd[i],
      s1 = b1.sensitivities[i],
      s2 = b2.sensitivities[i];
    basePd.push(p1 == null || p2 == null ? null : (p1 + p2) / 2);
    baseSens.push(s1 == null || s2 == null ? null : (s1 + s2) / 2);
  }
  const flagged = visits.slice(2).map((v) => {
    const out: number[] = [];
    for (let i = 0; i < nloc; i++) {
      const p = v.pd[i],
        b = basePd[i],
        s = baseSens[i];
      if (p == null || b == null || s == null) continue;
      if (p - b < deteriorationLimit(s)) out.push(i);
    }
    return out;
  });
  const intersect = (a: number[], b: number[]) => {
    const s = new Set(b);
    return a.filter((x) => s.has(x));
  };
  const repeated2 = flagged.map((f, k) => (k >= 1 ? intersect(f, flagged[k - 1]!) : []));
  const repeated3 = flagged.map((_, k) => (k >= 2 ? intersect(repeated2[k]!, flagged[k - 2]!) : []));
  const status = flagged.map(
    (_, k): EventStatus =>
      repeated3[k]!.length >= minPoints ? "likely progression" : repeated2[k]!.length >= minPoints ? "possible progression" : "none",
  );
  return { flagged, repeated2, repeated3, status, current: status[status.length - 1] ?? "none" };
}
