// Colours of the plots as design-token names. Renderers resolve a token through `plotPalette` (the web may map the same
// names onto its CSS custom properties); a scene may also carry a literal hex colour.

export const plotPalette = {
  "plot-background": "#ffffff",
  "plot-ink": "#1b1f24",
  "plot-ink-muted": "#59636e",
  "plot-ink-inverse": "#ffffff",
  "plot-axis": "#1b1f24",
  "plot-grid": "#d1d9e0",
  "plot-frame": "#818b98",
  "plot-normal-band": "#dde4ec",
  "plot-normal-band-edge": "#9aa6b2",
  "plot-series": "#1b1f24",
  "plot-regression": "#0b5cad",
  "plot-excluded": "#9aa6b2",
  "plot-eye-right": "#0b5cad",
  "plot-eye-left": "#a3420f",
  "plot-notice": "#9a3412",
  "plot-blind-spot": "#59636e",
  "gaze-bar": "#0b5cad",
  "gaze-unmeasured": "#f5c6a5",
  "gaze-threshold": "#9a3412",
  "live-answered": "#1a7f37",
  "live-unanswered": "#cf222e",
  "live-presented": "#8c959f",
  "live-progress-track": "#eaeef2",
  "live-progress-fill": "#0b5cad",
  "esterman-seen": "#1b1f24",
  "esterman-missed": "#1b1f24",
  "amsler-grid": "#1b1f24",
  "amsler-normal": "#1a7f37",
  "amsler-abnormal": "#cf222e",
  // Threshold colour bands, best (24-40 dB) to worst (0 dB); see thresholdBands.
  "threshold-band-0": "#d8f3dc",
  "threshold-band-1": "#b7e4c7",
  "threshold-band-2": "#fff3b0",
  "threshold-band-3": "#ffe08a",
  "threshold-band-4": "#ffc078",
  "threshold-band-5": "#ff9e6d",
  "threshold-band-6": "#f06a5d",
  "threshold-band-7": "#b3261e",
  "threshold-band-8": "#000000",
  // Grey bands of the greyscale: 0 = no response (black), 1..8 = the eight bands 1-5 ... 36-40 dB.
  "grey-band-0": "#000000",
  "grey-band-1": "#242424",
  "grey-band-2": "#404040",
  "grey-band-3": "#5e5e5e",
  "grey-band-4": "#7c7c7c",
  "grey-band-5": "#9b9b9b",
  "grey-band-6": "#bababa",
  "grey-band-7": "#d9d9d9",
  "grey-band-8": "#f7f7f7",
} as const;

export type ColourToken = keyof typeof plotPalette;
export type Colour = ColourToken | `#${string}`;

/** The hex value of a token (a hex colour passes through). */
export function resolveColour(colour: Colour, palette: Readonly<Record<string, string>> = plotPalette): string {
  return colour.startsWith("#") ? colour : (palette[colour] ?? plotPalette[colour as ColourToken]);
}
