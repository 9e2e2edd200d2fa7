/**
 * The words every series criterion answers in (issue 30), after vfprogression (Elze et al.): worsening, stable or
 * improving; or "not applicable" with the reason, never a verdict from too little data.
 */
export type Verdict = "worsening" | "stable" | "improving";

/** Every method the progression view runs on an eye's series, in the order it lists them. */
export const METHOD_IDS = [
  "events",
  "poplr",
  "md-slope",
  "vfi-trend",
  "cigts",
  "plr-nouri-2012",
  "plr-three-omitting",
  "schell-2014",
  "cluster-trend",
] as const;
export type MethodId = (typeof METHOD_IDS)[number];

/** Why a method gives no verdict on a series. */
export type NotApplicableReason =
  /** Fewer visits than the method needs. */
  | "too-few-visits"
  /** The visits span less time than the method needs. */
  | "too-short-follow-up"
  /** The method is defined on other patterns (e.g. the 52 non-blind-spot 24-2 locations). */
  | "pattern"
  /** A location the method needs was not measured on some visit. */
  | "missing-locations"
  /** No normative database for the pattern and version: no TD, PD or probabilities. */
  | "no-normative-database"
  /** Results of more than one pattern in the series. */
  | "mixed-patterns"
  /** The method's own rule says not to report (e.g. GPA's VFI trend with a positive slope or a poor fit). */
  | "not-shown-by-rule";

export type MethodOutcome<Detail = unknown> =
  | { readonly method: MethodId; readonly applicable: true; readonly verdict: Verdict; readonly detail: Detail }
  | { readonly method: MethodId; readonly applicable: false; readonly reason: NotApplicableReason };

export const notApplicable = (method: MethodId, reason: NotApplicableReason): MethodOutcome<never> => ({
  method,
  applicable: false,
  reason,
});
