import type { MethodId, MethodOutcome, Verdict } from "./verdict.ts";

/**
 * One reading per eye beside the criteria (issue 30), as data the web, the print and the CLI put in words, e.g.
 * "worsening by 4 of 6 methods; the loss is diffuse, which events on PD do not see". Every rule here is ours:
 * - the verdict is the one more than half of the applicable methods give; with no such majority, or fewer than
 *   READING_MIN_METHODS applicable methods, there is none (`basis` says which);
 * - the loss is "localised" when a pattern-deviation measure worsens (the PD events, or the PSD rising significantly,
 *   p <= 5 % two-sided), "diffuse" when a total-deviation or MD measure worsens while no PD measure does (a uniform
 *   loss leaves PD unchanged: PD takes the general height out), otherwise null. The VFI counts on neither side: it
 *   reads PD to choose its locations and sensitivity to weigh them.
 */
export const READING_MIN_METHODS = 3;

/** Methods reading PD (blind to a uniform loss). */
export const PD_METHODS: readonly MethodId[] = ["events"];
/** Methods reading TD, MD or the sensitivities (they see a uniform loss). */
export const TD_METHODS: readonly MethodId[] = [
  "poplr",
  "md-slope",
  "cigts",
  "plr-nouri-2012",
  "plr-three-omitting",
  "schell-2014",
  "cluster-trend",
];

export type LossPattern = "diffuse" | "localised";

export interface EyeReading {
  /** The majority's verdict; null when `basis` is not "majority". */
  readonly verdict: Verdict | null;
  readonly basis: "majority" | "no-majority" | "too-few-methods";
  readonly counts: {
    readonly worsening: number;
    readonly stable: number;
    readonly improving: number;
    readonly applicable: number;
    /** Every method run, applicable or not. */
    readonly methods: number;
  };
  /** The methods giving each verdict, in the criteria's order. */
  readonly worsening: MethodId[];
  readonly improving: MethodId[];
  readonly pattern: LossPattern | null;
  /** With a diffuse loss: the applicable PD methods that found no worsening (what they cannot see); else empty. */
  readonly unseenBy: MethodId[];
  /** The evidence behind `pattern`: TD/MD and PD methods finding worsening, and the PSD trend (null: no trend read). */
  readonly evidence: {
    readonly tdWorsening: MethodId[];
    readonly pdWorsening: MethodId[];
    readonly psdTrend: { readonly slopePerYear: number; readonly p: number; readonly rising: boolean } | null;
  };
}

export const PSD_ALPHA = 0.05;

export function eyeReading(
  methods: readonly MethodOutcome[],
  psdTrend: { readonly slopePerYear: number; readonly p: number } | null,
): EyeReading {
  const applicable = methods.filter((m) => m.applicable);
  const by = (v: Verdict) => applicable.filter((m) => m.verdict === v).map((m) => m.method);
  const worsening = by("worsening"),
    stable = by("stable"),
    improving = by("improving");
  const n = applicable.length;
  const majority = ([worsening, stable, improving] as const).findIndex((list) => list.length * 2 > n);
  const basis = n < READING_MIN_METHODS ? "too-few-methods" : majority < 0 ? "no-majority" : "majority";
  const rising = psdTrend !== null && psdTrend.slopePerYear > 0 && psdTrend.p <= PSD_ALPHA;
  const tdWorsening = worsening.filter((m) => TD_METHODS.includes(m));
  const pdWorsening = worsening.filter((m) => PD_METHODS.includes(m));
  const verdict = basis === "majority" ? (["worsening", "stable", "improving"] as const)[majority]! : null;
  const pattern: LossPattern | null =
    worsening.length === 0 || verdict === "stable" || verdict === "improving"
      ? null
      : pdWorsening.length > 0 || rising
        ? "localised"
        : tdWorsening.length > 0
          ? "diffuse"
          : null;
  return {
    verdict,
    basis,
    counts: { worsening: worsening.length, stable: stable.length, improving: improving.length, applicable: n, methods: methods.length },
    worsening,
    improving,
    pattern,
    unseenBy: pattern === "diffuse" ? applicable.filter((m) => PD_METHODS.includes(m.method)).map((m) => m.method) : [],
    evidence: { tdWorsening, pdWorsening, psdTrend: psdTrend && { ...psdTrend, rising } },
  };
}
