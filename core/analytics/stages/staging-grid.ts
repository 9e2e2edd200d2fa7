import { Pattern } from "../../model/enums.ts";
import { getPattern, type PatternPoint } from "../patterns.ts";

/**
 * The locations the staging methods read. AGIS (Gaasterland et al. 1994) and CIGTS (Musch et al. 1999) are defined on
 * the 52 non-blind-spot 24-2 locations; on 30-2 (which contains all of them) we read those 52 and leave the outer ring
 * out: our choice, the papers are silent on 30-2. Hodapp-Parrish-Anderson counts over the whole 30-2 (its own grid).
 */
export const STAGED_PATTERNS: readonly Pattern[] = [Pattern.P24_2, Pattern.P30_2];

export const isStagedPattern = (pattern: Pattern): boolean => STAGED_PATTERNS.includes(pattern);

/** One staging location: its index in the result's pattern and its right-eye coordinates. */
export interface StagingLocation extends PatternPoint {
  readonly index: number;
}

const isBlindSpot = (p: PatternPoint) => p.x === 15 && Math.abs(p.y) === 3;

const grids = new Map<Pattern, ReadonlyArray<StagingLocation>>();

/**
 * The 52 non-blind-spot 24-2 locations in 24-2 order (descending y, ascending x: vfprogression's and the papers'
 * numbering 1-52), each with its index in `pattern`; null on patterns the methods do not apply to.
 */
export function grid24(pattern: Pattern): ReadonlyArray<StagingLocation> | null {
  if (!isStagedPattern(pattern)) return null;
  let grid = grids.get(pattern);
  if (grid === undefined) {
    const points = getPattern(pattern).points;
    const at = new Map(points.map((p, i) => [`${p.x},${p.y}`, i]));
    grid = getPattern(Pattern.P24_2)
      .points.filter((p) => !isBlindSpot(p))
      .map((p) => ({ x: p.x, y: p.y, index: at.get(`${p.x},${p.y}`)! }));
    grids.set(pattern, grid);
  }
  return grid;
}

/**
 * For each location of `grid`, the positions (in `grid`) of its neighbours: the locations one grid step away, across
 * or diagonally (6 degrees in x and y), that lie in the same region. With regions = hemifields this is Gillespie et
 * al.'s (2003) CIGTS neighbour list, with regions = AGIS sectors the AGIS 2 (Fig. 1) list (both checked location by
 * location against vfprogression's lists, tests/analytics/stages).
 */
export function neighbours(grid: ReadonlyArray<PatternPoint>, region: (p: PatternPoint) => string): number[][] {
  return grid.map((a) =>
    grid.flatMap((b, j) => (b !== a && Math.abs(a.x - b.x) <= 6 && Math.abs(a.y - b.y) <= 6 && region(a) === region(b) ? [j] : [])),
  );
}

/** Upper (superior, y > 0) or lower hemifield; the 24-2 and 30-2 grids have no location on the horizontal midline. */
export const hemifield = (p: PatternPoint): "upper" | "lower" => (p.y > 0 ? "upper" : "lower");
