import { Eye, Pattern, patternLabel } from "../model/enums.ts";

/**
 * Test patterns: coordinates in degrees, RIGHT-EYE orientation (positive x = temporal, blind spot at x = +15).
 *
 * Index convention (what live thresholds and stored results use): a location's index is its 0-based position in
 * `points`, ordered by descending y, then ascending x (the order of visualFields' location maps, locmaps.json, where
 * CSV column l(K) is index K-1). Indices refer to this right-eye order whatever the eye tested: a left eye's index K is
 * the mirror image (-x, y) of the right eye's point K, so results of both eyes line up location by location.
 * Use `pointsForEye` to get the coordinates as the patient sees them.
 *
 * 24-2, 30-2, 10-2 and G (Octopus G1) are copies of visualFields 1.0.8's maps p24d2, p30d2, p10d2 and g1
 * (tests/analytics/patterns.test.ts checks them against fixtures/visualfields/locmaps.json).
 * Esterman 120 follows the published row list (shared/design/analytics.md).
 * S28 and C40 have no public coordinate list; our definitions are documented at `s28` and `c40` below.
 */
export interface PatternPoint {
  readonly x: number;
  readonly y: number;
}

export interface PatternGeometry {
  readonly pattern: Pattern;
  readonly label: string;
  readonly points: ReadonlyArray<PatternPoint>;
  /** 0-based indices into `points` excluded from all statistics (at the physiological blind spot). */
  readonly blindSpotIndices: readonly number[];
  /** True for binocular patterns (Esterman): coordinates are never mirrored. */
  readonly binocular: boolean;
}

/** Where Heijl-Krakau fixation catch trials go for a right eye (mirror x for a left eye): the physiological blind spot. */
export const blindSpotCatchPoint: PatternPoint = { x: 15, y: -3 };

const zip = (xs: readonly number[], ys: readonly number[]): PatternPoint[] => xs.map((x, i) => ({ x, y: ys[i]! }));

/** Rows of a symmetric grid, listed top row first as [y, half-width], spaced by `step` and offset by step / 2. */
const grid = (step: number, rows: ReadonlyArray<readonly [number, number]>): PatternPoint[] =>
  rows.flatMap(([y, half]) => {
    const out: PatternPoint[] = [];
    for (let x = -half; x <= half; x += step) out.push({ x, y });
    return out;
  });

const byDisplayOrder = (a: PatternPoint, b: PatternPoint) => b.y - a.y || a.x - b.x;

// visualFields p24d2: rows y = 21 ... -21 with x from -9..9, -15..15, -21..21, -27..21 (twice), -21..21, -15..15, -9..9.
const p24d2 = grid(6, [
  [21, 9],
  [15, 15],
  [9, 21],
  [3, 27],
  [-3, 27],
  [-9, 21],
  [-15, 15],
  [-21, 9],
]).filter((p) => !(p.x === 27 && Math.abs(p.y) === 3));
// visualFields p30d2: rows y = 27 ... -27, half-widths 9, 15, 21, 27, 27, 27, 27, 21, 15, 9.
const p30d2 = grid(6, [
  [27, 9],
  [21, 15],
  [15, 21],
  [9, 27],
  [3, 27],
  [-3, 27],
  [-9, 27],
  [-15, 21],
  [-21, 15],
  [-27, 9],
]);
// visualFields p10d2: rows y = 9 ... -9, half-widths 1, 5, 7, 7, 9, 9, 7, 7, 5, 1.
const p10d2 = grid(2, [
  [9, 1],
  [7, 5],
  [5, 7],
  [3, 7],
  [1, 9],
  [-1, 9],
  [-3, 7],
  [-5, 7],
  [-7, 5],
  [-9, 1],
]);
// visualFields g1 (Octopus G1, 59 locations), copied from locmaps.json.
const g1 = zip(
  [
    -8, 8, -20, -12, -4, 4, 12, 20, -4, 4, -20, -12, 12, 20, -8, -2, 2, 8, 26, -26, -20, -14, -4, 4, 22, -8, -2, 2, 8, 0, -8, -2, 2, 8, -26,
    -20, -14, -4, 4, 22, -8, 8, 26, -3, 3, -20, -12, 12, 20, -4, 4, -20, -12, -4, 4, 12, 20, -8, 8,
  ],
  [
    26, 26, 20, 20, 20, 20, 20, 20, 14, 14, 12, 12, 12, 12, 8, 8, 8, 8, 8, 4, 4, 4, 4, 4, 4, 2, 2, 2, 2, 0, -2, -2, -2, -2, -4, -4, -4, -4,
    -4, -4, -8, -8, -8, -9, -9, -12, -12, -12, -12, -14, -14, -20, -20, -20, -20, -20, -20, -26, -26,
  ],
);

const ecc = (p: PatternPoint) => Math.hypot(p.x, p.y);
const isBlindSpot24 = (p: PatternPoint) => p.x === 15 && Math.abs(p.y) === 3;

/**
 * S28 (our definition; supra-threshold screening, 28 locations): the 22 locations of the 24-2 grid within 16 degrees
 * (eccentricity <= 15.3), blind spot omitted, plus the six nasal-step locations (-21, +-3), (-27, +-3), (-21, +-9)
 * where early glaucomatous loss is most often found. All are 24-2 locations, so a 24-2 normal applies point by point.
 */
const s28 = [
  ...p24d2.filter((p) => ecc(p) < 16 && !isBlindSpot24(p)),
  ...[
    [-21, 3],
    [-21, -3],
    [-27, 3],
    [-27, -3],
    [-21, 9],
    [-21, -9],
  ].map(([x, y]) => ({ x: x!, y: y! })),
].sort(byDisplayOrder);

/**
 * C40 (our definition; single-level screening, 40 locations within 30 degrees): the 30 locations of the 30-2 grid within
 * 18 degrees (eccentricity <= 17.5), blind spot omitted, plus ten outer locations: (+-3, +-27) above and below,
 * (-27, +-3) nasal, (27, +-3) temporal and (-21, +-15) nasal arcuate. All are 30-2 locations.
 */
const c40 = [
  ...p30d2.filter((p) => ecc(p) < 18 && !isBlindSpot24(p)),
  ...[
    [-3, 27],
    [3, 27],
    [-3, -27],
    [3, -27],
    [-27, 3],
    [-27, -3],
    [27, 3],
    [27, -3],
    [-21, 15],
    [-21, -15],
  ].map(([x, y]) => ({ x: x!, y: y! })),
].sort(byDisplayOrder);

/** Esterman binocular 120 (Esterman 1982): per row y, the |x| values; each is tested at +x and -x. */
const estermanRows: ReadonlyArray<readonly [number, readonly number[]]> = [
  [36, [23]],
  [21, [57, 34, 17, 6]],
  [10, [73, 57, 42, 30, 20, 10, 3]],
  [3, [75, 57, 42, 30, 20, 13, 8]],
  [-3, [76, 57, 42, 30, 20, 13, 8]],
  [-8, [76, 57, 42, 30, 20, 13, 8, 3]],
  [-13, [75, 57, 42, 30, 20, 13, 8, 3]],
  [-21, [74, 57, 42, 30, 20, 13, 8, 3]],
  [-30, [69, 49, 33, 17, 5]],
  [-43, [55, 29, 8]],
  [-53, [30]],
  [-57, [8]],
];
const esterman = estermanRows
  .flatMap(([y, xs]) =>
    xs.flatMap((x) => [
      { x: -x, y },
      { x, y },
    ]),
  )
  .sort(byDisplayOrder);

const blindSpots = (points: readonly PatternPoint[]) => points.flatMap((p, i) => (isBlindSpot24(p) ? [i] : []));

const make = (pattern: Pattern, points: PatternPoint[], binocular = false, blind = blindSpots(points)): PatternGeometry =>
  Object.freeze({
    pattern,
    label: patternLabel[pattern],
    points: Object.freeze(points.map((p) => Object.freeze(p))),
    blindSpotIndices: Object.freeze(blind),
    binocular,
  });

const geometries: Partial<Record<Pattern, PatternGeometry>> = {
  [Pattern.P24_2]: make(Pattern.P24_2, p24d2), // blind spots 25, 34
  [Pattern.P30_2]: make(Pattern.P30_2, p30d2), // blind spots 35, 45
  [Pattern.P10_2]: make(Pattern.P10_2, p10d2, false, []),
  [Pattern.G]: make(Pattern.G, g1, false, []),
  [Pattern.S28]: make(Pattern.S28, s28, false, []),
  [Pattern.C40]: make(Pattern.C40, c40, false, []),
  [Pattern.Esterman]: make(Pattern.Esterman, esterman, true, []),
};

/** Patterns with a location map (every pattern except Undefined). */
export const patternsWithGeometry: readonly Pattern[] = Object.keys(geometries).map((k) => Number(k) as Pattern);

/** The geometry of a pattern; throws for Pattern.Undefined, which has no locations. */
export function getPattern(pattern: Pattern): PatternGeometry {
  const g = geometries[pattern];
  if (!g) throw new Error(`pattern ${pattern} (${patternLabel[pattern] ?? "unknown"}) has no location map`);
  return g;
}

/**
 * Coordinates as tested on `eye`: a left eye mirrors x (the index order stays the right-eye order, see above);
 * binocular patterns are never mirrored.
 */
export function pointsForEye(geometry: PatternGeometry, eye: Eye): ReadonlyArray<PatternPoint> {
  if (geometry.binocular || eye !== Eye.Left) return geometry.points;
  return geometry.points.map((p) => ({ x: p.x === 0 ? 0 : -p.x, y: p.y }));
}

/** Indices of the locations used in statistics (blind spots removed). */
export function statisticalIndices(geometry: PatternGeometry): number[] {
  const blind = new Set(geometry.blindSpotIndices);
  return geometry.points.flatMap((_, i) => (blind.has(i) ? [] : [i]));
}
