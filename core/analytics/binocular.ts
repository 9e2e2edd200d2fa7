import { clinicTime } from "../model/clinic-time.ts";
import { Eye, Pattern, type Strategy } from "../model/enums.ts";
import { getPattern } from "./patterns.ts";
import { isScreening } from "./seen.ts";

/**
 * The binocular integrated visual field (IVF): what a patient sees with both eyes open, estimated from the two
 * monocular fields of one visit.
 *
 * - Nelson-Quigg JM, Cello K, Johnson CA, "Predicting binocular visual field sensitivity from monocular visual field
 *   results", Invest Ophthalmol Vis Sci 2000;41:2212-2221: on 30-2 fields of 111 patients, the "best location" model
 *   ("the highest sensitivity between eyes at each visual field location") and the binocular summation model predicted
 *   measured binocular sensitivity equally well (95 % of predictions within +-3 dB; their difference not significant).
 * - Crabb DP, Viswanathan AC, "Integrated visual fields: a new approach to measuring the binocular field of view and
 *   visual disability", Graefe's Arch Clin Exp Ophthalmol 2005;243:210-216 (after Crabb et al., Br J Ophthalmol
 *   1998;82:1236-1241): the sensitivities of spatially corresponding points of the left and right 24-2 fields merged
 *   into one field, and "a related score of the number of defects at the <10 dB and <20 dB level".
 *
 * We use the best-location model (the IVF's, and the simpler of the two that predict equally well). Our choices where
 * the papers leave a gap:
 * - Matching: both fields in visual space (a left eye's location K is the mirror image of the right eye's K,
 *   patterns.ts), so a right-eye location pairs with the left eye's location at the same place in the patient's view.
 * - Blind spots: an eye's physiological blind-spot location does not count (it is no damage); the fellow eye, whose
 *   field is seeing there, gives the value alone.
 * - A place only one eye's pattern tests (the 24-2 nasal-step points at 27 degrees nasal) is left out: the other eye's
 *   temporal field sees there but was not measured, so the binocular value is unknown.
 * - Disability score: each IVF point below 20 dB counts 1 and each below 10 dB counts once more (0, 1 or 2 a point;
 *   0 for a field with no point below 20 dB). Crabb and Viswanathan report the two counts; their sum is ours. Scores
 *   count a pattern's own IVF points, so only scores of one pattern compare.
 * - Patterns: 24-2 (52 IVF points), 30-2 (76) and 10-2 (68), whose grids coincide in visual space. Not G (10 of its 59
 *   locations have no mirror partner), not the screenings (levels seen, not sensitivities), not Esterman (binocular).
 */
export const INTEGRATED_FIELD_PATTERNS: readonly Pattern[] = [Pattern.P24_2, Pattern.P30_2, Pattern.P10_2];

/** Sensitivities below these (dB) count as relative and dense defects in the disability score (Crabb 2005). */
export const IVF_RELATIVE_DEFECT_DB = 20;
export const IVF_DENSE_DEFECT_DB = 10;

/** One eye's result of the visit, as a stored result carries it. */
export interface MonocularField {
  readonly eye: Eye;
  readonly pattern: Pattern;
  readonly strategy?: Strategy | null;
  /** Per location in the pattern's (right-eye) index order, dB; null = not measured. */
  readonly thresholds: ReadonlyArray<number | null>;
  /** ISO instant the test was taken. */
  readonly takenAt: string;
}

/** Which eye gave an IVF point its sensitivity: "both" when the two are equal. */
export type IntegratedSource = "right" | "left" | "both";

export interface IntegratedPoint {
  /** Degrees in visual space, as the patient sees (positive x = the patient's right). */
  readonly x: number;
  readonly y: number;
  /** The better of the two eyes' sensitivities, dB. */
  readonly sensitivity: number;
  readonly source: IntegratedSource;
  /** Each eye's value here; null at that eye's blind spot. */
  readonly right: number | null;
  readonly left: number | null;
  /** The pattern location at this place: its index in the right eye's field (right-eye orientation is visual space). */
  readonly index: number;
}

export interface DisabilityScore {
  /** Points below 20 dB plus points below 10 dB. */
  readonly score: number;
  /** The highest score the pattern's IVF can have (twice its points). */
  readonly max: number;
  /** Points below 10 dB. */
  readonly dense: number;
  /** Points below 20 dB (the dense ones included). */
  readonly relative: number;
}

export type IntegratedFieldReason =
  /** The results are not one right eye and one left eye. */
  | "eyes"
  /** The eyes were not tested on the same calendar day (in the clinic's time zone). */
  | "not-same-day"
  | "different-patterns"
  /** A pattern whose locations do not pair up across the eyes (G), or a binocular one (Esterman). */
  | "pattern"
  /** A supra-threshold or one-level screening: its values are the levels seen, not sensitivities. */
  | "screening"
  /** A location without a finite value (a test stopped early or a broken location list). */
  | "incomplete";

export interface IntegratedField {
  readonly applicable: true;
  readonly pattern: Pattern;
  /** In display order: top row first, left to right. */
  readonly points: readonly IntegratedPoint[];
  readonly disability: DisabilityScore;
}

export type IntegratedFieldOutcome = IntegratedField | { readonly applicable: false; readonly reason: IntegratedFieldReason };

const notApplicable = (reason: IntegratedFieldReason) => ({ applicable: false as const, reason });

/** Whether two instants fall on the same calendar day in `timeZone` (the clinic's). */
export const sameClinicDay = (a: string, b: string, timeZone = "UTC"): boolean =>
  clinicTime(a, timeZone).date === clinicTime(b, timeZone).date;

/** The pairs of a pattern: per right-eye index, the left eye's index at the same place in visual space (or -1). */
const pairings = new Map<Pattern, Int32Array>();
function pairing(pattern: Pattern): Int32Array {
  let pairs = pairings.get(pattern);
  if (!pairs) {
    const { points } = getPattern(pattern);
    const at = new Map(points.map((p, i) => [`${p.x},${p.y}`, i]));
    // The left eye's location j lies at (-x_j, y_j) in visual space: it pairs with the right eye's location there.
    pairs = Int32Array.from(points, (p) => at.get(`${-p.x},${p.y}`) ?? -1);
    pairings.set(pattern, pairs);
  }
  return pairs;
}

const complete = (f: MonocularField) =>
  f.thresholds.length === getPattern(f.pattern).points.length && f.thresholds.every((t) => t !== null && Number.isFinite(t));

/** The disability score of IVF sensitivities (see the module's note). */
export function disabilityScore(sensitivities: readonly number[]): DisabilityScore {
  let dense = 0;
  let relative = 0;
  for (const s of sensitivities) {
    if (s < IVF_RELATIVE_DEFECT_DB) relative++;
    if (s < IVF_DENSE_DEFECT_DB) dense++;
  }
  return { score: relative + dense, max: 2 * sensitivities.length, dense, relative };
}

/**
 * The integrated field of one visit's right- and left-eye results, or "not applicable" with the reason. `timeZone`
 * decides the calendar day (default UTC; screens pass the clinic's).
 */
export function integratedField(right: MonocularField, left: MonocularField, timeZone = "UTC"): IntegratedFieldOutcome {
  if (right.eye !== Eye.Right || left.eye !== Eye.Left) return notApplicable("eyes");
  if (!sameClinicDay(right.takenAt, left.takenAt, timeZone)) return notApplicable("not-same-day");
  if (right.pattern !== left.pattern) return notApplicable("different-patterns");
  if (!INTEGRATED_FIELD_PATTERNS.includes(right.pattern)) return notApplicable("pattern");
  if (isScreening(right.strategy) || isScreening(left.strategy)) return notApplicable("screening");
  if (!complete(right) || !complete(left)) return notApplicable("incomplete");
  const geometry = getPattern(right.pattern);
  const blind = new Set(geometry.blindSpotIndices);
  const pairs = pairing(right.pattern);
  const points: IntegratedPoint[] = [];
  geometry.points.forEach((p, i) => {
    const j = pairs[i]!;
    if (j < 0) return; // only the right eye's pattern tests here
    const r = blind.has(i) ? null : right.thresholds[i]!;
    const l = blind.has(j) ? null : left.thresholds[j]!;
    const sensitivity = Math.max(r ?? -Infinity, l ?? -Infinity);
    const source: IntegratedSource = r === l ? "both" : sensitivity === r ? "right" : "left";
    points.push({ x: p.x, y: p.y, sensitivity, source, right: r, left: l, index: i });
  });
  return { applicable: true, pattern: right.pattern, points, disability: disabilityScore(points.map((p) => p.sensitivity)) };
}

/**
 * The fellow eye's result of the same visit among `candidates`: the other eye (right <-> left), the same calendar day;
 * of those, one on the same pattern first, then the nearest in time. Null when the fellow eye was not tested that day.
 * A result on another pattern is returned so the screen can say why no IVF is drawn.
 */
export function sameVisitFellow<T extends Pick<MonocularField, "eye" | "pattern" | "takenAt">>(
  candidates: readonly T[],
  current: Pick<MonocularField, "eye" | "pattern" | "takenAt">,
  timeZone = "UTC",
): T | null {
  const fellowEye = current.eye === Eye.Right ? Eye.Left : current.eye === Eye.Left ? Eye.Right : null;
  if (fellowEye === null) return null;
  const at = Date.parse(current.takenAt);
  let best: T | null = null;
  const rank = (c: T) => [c.pattern === current.pattern ? 0 : 1, Math.abs(Date.parse(c.takenAt) - at)] as const;
  for (const c of candidates) {
    if (c.eye !== fellowEye || !sameClinicDay(c.takenAt, current.takenAt, timeZone)) continue;
    if (best === null) {
      best = c;
      continue;
    }
    const [cp, ct] = rank(c);
    const [bp, bt] = rank(best);
    if (cp < bp || (cp === bp && ct < bt)) best = c;
  }
  return best;
}

/** The right and the left eye of a visit in that order, whichever of the two is the current result. */
export function byEye<T extends Pick<MonocularField, "eye">>(a: T, b: T): { right: T; left: T } {
  return a.eye === Eye.Left ? { right: b, left: a } : { right: a, left: b };
}

/** A visit seen with both eyes: its right- and left-eye items (null for an eye not tested that day) and their IVF. */
export interface VisitWithBothEyes<T> {
  readonly right: T | null;
  readonly left: T | null;
  readonly field: IntegratedFieldOutcome;
}

/**
 * The visit of `current` with both eyes, among a patient's `items` (results as a caller holds them; `fieldOf` reads
 * the monocular result of one), or null for a result that is not one eye's (Esterman is binocular already). Without a
 * fellow result that day the field is "not applicable: not the same day". The result page, its print and the CLI's
 * printed page all find the visit here.
 */
export function visitWithBothEyes<T>(
  current: T,
  items: readonly T[],
  fieldOf: (item: T) => MonocularField,
  timeZone: string,
): VisitWithBothEyes<T> | null {
  const own = fieldOf(current);
  if (own.eye !== Eye.Right && own.eye !== Eye.Left) return null;
  const of = (item: T) => ({ item, ...fieldOf(item) });
  const fellow = sameVisitFellow(items.map(of), own, timeZone)?.item ?? null;
  if (fellow === null) {
    const side = own.eye === Eye.Right ? { right: current, left: null } : { right: null, left: current };
    return { ...side, field: { applicable: false, reason: "not-same-day" } };
  }
  const { right, left } = byEye(of(current), of(fellow));
  return { right: right.item, left: left.item, field: integratedField(right, left, timeZone) };
}
