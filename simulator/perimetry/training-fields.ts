import type { PatternPoint } from "../../core/analytics/patterns.ts";
import { type GlaucomaStage, glaucomaLoss } from "./defects.ts";
import { hensonSigma, HENSON } from "./fos.ts";
import { blindSpotLoss, hillOfVision } from "./hill.ts";
import type { Rng } from "./random.ts";
import { MAX_DB, MIN_DB } from "./procedures/procedure.ts";

// Training fields for SORS: the SUNY-IU control fields (24-2, right-eye order) and synthetic glaucomatous fields.

export interface ControlField {
  readonly age: number;
  /** dB per 24-2 location, right-eye order (visualFields stores left eyes mirrored). */
  readonly values: readonly number[];
}

/** Parse visualFields' CSV (id, eye, date, time, age, type, fpr, fnr, fl, duration, l1 ... ln). */
export const parseVisualFieldsCsv = (text: string): ControlField[] => {
  const [header, ...rows] = text.trim().split(/\r?\n/);
  const cols = header!.split(",");
  const age = cols.indexOf("age");
  const first = cols.indexOf("l1");
  return rows.map((r) => {
    const v = r.split(",");
    return { age: Number(v[age]), values: v.slice(first).map(Number) };
  });
};

const clip = (db: number) => Math.min(MAX_DB, Math.max(MIN_DB, db));

/** A glaucomatous field as a perimeter would measure it: hill, individual variation, loss, test-retest noise, clipped. */
export const syntheticGlaucomaField = (points: readonly PatternPoint[], stage: GlaucomaStage, age: number, rng: Rng): number[] => {
  const loss = glaucomaLoss(points, stage, rng);
  const height = rng.normal();
  return points.map((p, i) => {
    const t = hillOfVision(p, age) + height + rng.normal() - blindSpotLoss(p) - loss[i]!;
    return Math.round(clip(t + rng.normal() * 0.5 * hensonSigma(t, HENSON.glaucoma)));
  });
};

/**
 * Control fields carried from the 24-2 grid to another pattern: each control's total deviation from the hill is
 * interpolated (inverse-distance weights of the 4 nearest 24-2 locations, blind spots left out) and added to the hill at
 * the new points.
 */
export const carryControls = (
  controls: readonly ControlField[],
  from: readonly PatternPoint[],
  fromBlindSpots: readonly number[],
  to: readonly PatternPoint[],
): number[][] => {
  const sources = from.map((p, i) => ({ p, i })).filter(({ i }) => !fromBlindSpots.includes(i));
  const weights = to.map((q) => {
    const near = sources
      .map(({ p, i }) => ({ i, d: Math.hypot(p.x - q.x, p.y - q.y) }))
      .sort((a, b) => a.d - b.d)
      .slice(0, 4);
    const w = near.map(({ i, d }) => ({ i, w: 1 / Math.max(0.5, d) ** 2 }));
    const total = w.reduce((s, x) => s + x.w, 0);
    return w.map(({ i, w: wi }) => ({ i, w: wi / total }));
  });
  return controls.map((c) => {
    const td = from.map((p, i) => c.values[i]! - hillOfVision(p, c.age));
    return to.map((q, k) =>
      Math.round(clip(hillOfVision(q, c.age) - blindSpotLoss(q) + weights[k]!.reduce((s, { i, w }) => s + w * td[i]!, 0))),
    );
  });
};
