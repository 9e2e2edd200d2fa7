// How large the result page draws its plots (issue 21: they stayed 240 px in a wide window). The field plots are laid
// out in columns that fill the width the zoom wrapper measures, each near PLOT_TARGET px: about four on a wide screen
// (the Octopus-style row), three at 1280 px, one on a phone. A plot scales its stage by the factor, never a bitmap.

/** A field plot's size as its scene is built (ResultDisplay's FIELD_SIZE): the unit the factor multiplies. */
export const PLOT_UNIT = 240;
/** The gap between plots in a grid (results.css .plot-grid, var(--space-3)). */
export const PLOT_GAP = 12;
/** The size a column aims at; the number of columns is the one that brings plots nearest to it. */
export const PLOT_TARGET = 320;
/** No field plot grows beyond this when fitted (larger only when the user zooms in). */
export const PLOT_MAX = 400;
/** Nor shrinks below this share of its size (texts stay legible): the plot scrolls inside the zoom frame instead. */
export const MIN_SCALE = 0.5;

/**
 * The factor that fits a grid of `count` field plots to `width` px: the columns that bring each plot nearest
 * PLOT_TARGET (never more columns than plots), each as wide as the columns allow, at most PLOT_MAX.
 */
export function fitScale(width: number, count: number): number {
  const columns = Math.max(1, Math.min(Math.max(1, count), Math.round((width + PLOT_GAP) / (PLOT_TARGET + PLOT_GAP))));
  // Whole pixels, rounded down: a column a fraction too wide would push the row's last plot to the next row.
  const size = Math.min(PLOT_MAX, Math.floor((width - (columns - 1) * PLOT_GAP) / columns));
  return Math.max(MIN_SCALE, size / PLOT_UNIT);
}

/**
 * One plot's factor: the grid's, but no wider than the width there is (an Esterman field or the gaze chart on a phone),
 * times the user's zoom (zoomed in, the frame scrolls). `floor` keeps a wide chart legible (it scrolls instead).
 */
export function plotScale(fit: number, sceneWidth: number, width: number, zoom: number, floor = MIN_SCALE): number {
  return Math.max(floor, Math.min(fit, width / sceneWidth)) * zoom;
}
