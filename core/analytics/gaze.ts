/**
 * Gaze-tracking summary for the gaze chart (accounts seed §9: "scale fixed at 40 if max under 10, else max plus 20;
 * value -1 means could not measure"; §5: "Gaze bars in print are not drawn if more than 666 samples").
 */
export const GAZE_NOT_MEASURED = -1;
export const GAZE_PRINT_MAX_SAMPLES = 666;

export interface GazeSummary {
  readonly samples: number;
  readonly measured: number;
  /** Samples equal to -1 (could not measure). */
  readonly notMeasured: number;
  readonly mean: number | null;
  readonly max: number | null;
  /** Upper end of the chart's value axis. */
  readonly scaleMax: number;
  /** Measured samples above the fixation threshold (null without a threshold). */
  readonly aboveThreshold: number | null;
  readonly printable: boolean;
}

/** "Scale fixed at 40 if max under 10, else max plus 20." (accounts seed §9) */
export function gazeScaleMax(max: number): number {
  return max < 10 ? 40 : max + 20;
}

/**
 * The largest measured sample, null when none was measured. A loop: Math.max(...samples) overflows the call stack
 * past about 100,000 samples, and a headset may send that many (its socket takes messages of up to 4 MB).
 */
export function largestMeasured(samples: readonly number[]): number | null {
  let max: number | null = null;
  for (const v of samples) if (v !== GAZE_NOT_MEASURED && (max === null || v > max)) max = v;
  return max;
}

export function gazeSummary(meanDistance: readonly number[], fixationThreshold?: number | null): GazeSummary {
  const measured = meanDistance.filter((v) => v !== GAZE_NOT_MEASURED);
  const max = largestMeasured(measured);
  return {
    samples: meanDistance.length,
    measured: measured.length,
    notMeasured: meanDistance.length - measured.length,
    mean: measured.length ? measured.reduce((a, b) => a + b, 0) / measured.length : null,
    max,
    scaleMax: gazeScaleMax(max ?? 0),
    aboveThreshold:
      fixationThreshold === null || fixationThreshold === undefined ? null : measured.filter((v) => v > fixationThreshold).length,
    printable: meanDistance.length <= GAZE_PRINT_MAX_SAMPLES,
  };
}
