import { ghtLimitsFromControls, ghtPatterns } from "../ght.ts";
import type { PatternGeometry } from "../patterns.ts";
import { generalHeight, patternDeviation, totalDeviation } from "../pointwise.ts";
import type { VisualFieldRow } from "../visualfields-csv.ts";
import type { NormativeTables } from "./tables.ts";

/** Weight 1 / (visits of the subject) per control row, so every subject counts once. */
export function subjectWeights(rows: readonly VisualFieldRow[]): number[] {
  const key = (r: VisualFieldRow) => `${r.id}\u0000${r.eye}`;
  const visits = new Map<string, number>();
  for (const r of rows) visits.set(key(r), (visits.get(key(r)) ?? 0) + 1);
  return rows.map((r) => 1 / visits.get(key(r))!);
}

/** Adds Glaucoma Hemifield Test limits computed on the control fields with these tables (24-2 and 30-2). */
export function withGhtLimits(nv: NormativeTables, geometry: PatternGeometry, controls: readonly VisualFieldRow[]): NormativeTables {
  if (!ghtPatterns.has(geometry.pattern)) return { ...nv, ght: null };
  const pds = controls.map((r) => {
    const td = totalDeviation(nv, r.sensitivities, r.age);
    return patternDeviation(td, generalHeight(td, nv.ghRank));
  });
  return { ...nv, ght: ghtLimitsFromControls(nv, geometry, pds, subjectWeights(controls)) };
}
