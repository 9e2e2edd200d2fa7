import type { PatternPoint } from "../../core/analytics/patterns.ts";
import type { Rng } from "./random.ts";

// Synthetic visual-field loss, in right-eye orientation (nasal is x < 0), as dB to subtract from the normal hill.
//
// Glaucoma follows the retinal nerve-fibre layer: loss keeps to one hemifield at a time (it respects the horizontal
// meridian), starts at the nasal step and in the Bjerrum arcuate region (10-20 degrees) and spreads round fixation towards
// the blind spot, sparing the centre until late. We place a point by its angle round fixation seen from the nasal
// horizontal meridian (theta = 0 at the nasal meridian, pi at the temporal one) and its eccentricity; a hemifield's
// damage front reaches theta < front, with depth falling off at the front's edge and outside the arcuate band.

export type GlaucomaStage = "early" | "moderate" | "advanced";

interface Hemifield {
  /** How far round from the nasal meridian the damage reaches (radians, 0..pi). */
  readonly front: number;
  /** Depth in dB at the core of the damaged region. */
  readonly depth: number;
  /** Arcuate band: eccentricities [inner, outer] in degrees that are damaged. */
  readonly inner: number;
  readonly outer: number;
}

const STAGES: Record<GlaucomaStage, { first: [number, number, number, number, number, number]; second: number }> = {
  // first hemifield: front range (fraction of pi), depth range (dB), inner ecc, outer ecc; second: chance of a second hemifield
  early: { first: [0.15, 0.4, 6, 14, 8, 30], second: 0.15 },
  moderate: { first: [0.45, 0.8, 12, 24, 5, 40], second: 0.5 },
  advanced: { first: [0.8, 1.0, 22, 34, 3, 90], second: 1 },
};

const hemifieldFor = (stage: GlaucomaStage, rng: Rng, scale = 1): Hemifield => {
  const [f0, f1, d0, d1, inner, outer] = STAGES[stage].first;
  return {
    front: Math.PI * rng.uniform(f0, f1) * scale,
    depth: rng.uniform(d0, d1) * scale,
    inner: inner + rng.uniform(-1, 2),
    outer,
  };
};

const smoothstep = (e0: number, e1: number, x: number) => {
  const t = Math.min(1, Math.max(0, (x - e0) / (e1 - e0)));
  return t * t * (3 - 2 * t);
};

const lossIn = (h: Hemifield, p: PatternPoint): number => {
  const ecc = Math.hypot(p.x, p.y);
  const theta = Math.atan2(Math.abs(p.y), -p.x); // 0 nasal meridian, pi temporal
  const alongArc = 1 - smoothstep(h.front - 0.35, h.front + 0.05, theta);
  const inBand = smoothstep(h.inner - 3, h.inner + 1, ecc) * (1 - smoothstep(h.outer, h.outer + 6, ecc));
  return h.depth * alongArc * inBand;
};

/** A glaucomatous loss pattern for one eye; per-location jitter makes fields of one stage differ. */
export const glaucomaLoss = (points: readonly PatternPoint[], stage: GlaucomaStage, rng: Rng): number[] => {
  const superiorFirst = rng.chance(0.6); // superior arcuate defects are the more common
  const first = hemifieldFor(stage, rng);
  const second = rng.chance(STAGES[stage].second) ? hemifieldFor(stage, rng, stage === "advanced" ? rng.uniform(0.7, 1) : 0.5) : null;
  return points.map((p) => {
    const superior = p.y > 0;
    const h = superior === superiorFirst ? first : second;
    const base = h ? lossIn(h, p) : 0;
    return base > 0.5 ? Math.max(0, base + rng.normal() * Math.min(4, base / 3)) : 0;
  });
};

/** Homonymous hemianopia of the patient's left (or right) half-field, sparing the central 2 degrees. In right-eye
 * coordinates the patient's left is x < 0 for a right eye and x > 0 for a left eye (whose points are mirrored). */
export const hemianopiaLoss = (points: readonly PatternPoint[], side: "left" | "right", leftEye: boolean): number[] => {
  const lostSign = (side === "left" ? -1 : 1) * (leftEye ? -1 : 1);
  return points.map((p) => (Math.sign(p.x) === lostSign && Math.hypot(p.x, p.y) > 2 ? 60 : 0));
};
