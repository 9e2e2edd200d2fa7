import { Eye, Pattern, patternLabel } from "../../core/model/enums.ts";
import { InvalidArgumentError } from "commander";
import { takenAtParts, type ExportRecord } from "./record.ts";

/** What `isopter export` keeps. Dates are inclusive test days (UTC). */
export interface ExportFilters {
  readonly from?: string;
  readonly to?: string;
  readonly pattern?: Pattern;
  readonly eye?: Eye;
  /** Only results that are both not marked unreliable by a clinician and within the catch-trial limits. */
  readonly reliableOnly: boolean;
}

export function matchesFilters(r: ExportRecord, f: ExportFilters): boolean {
  if (r.test.trashedAt !== null) return false;
  if (f.pattern !== undefined && r.result.pattern !== f.pattern) return false;
  if (f.eye !== undefined && r.result.eye !== f.eye) return false;
  if (f.from !== undefined || f.to !== undefined) {
    const { date } = takenAtParts(r.result.takenAt);
    if (f.from !== undefined && date < f.from) return false;
    if (f.to !== undefined && date > f.to) return false;
  }
  if (f.reliableOnly && !(r.test.reliable && r.analysis().reliability.reliable)) return false;
  return true;
}

const patternByLabel = new Map(
  Object.entries(patternLabel)
    .filter(([code]) => Number(code) !== Pattern.Undefined)
    .map(([code, label]) => [label.toLowerCase(), Number(code) as Pattern]),
);

export const patternNames = [...patternByLabel.keys()];

/** --pattern 24-2 | 30-2 | 10-2 | g | s28 | esterman | c40 (case-insensitive). */
export function patternOption(value: string): Pattern {
  const p = patternByLabel.get(value.toLowerCase());
  if (p === undefined)
    throw new InvalidArgumentError(`Expected one of ${[...patternByLabel.values()].map((c) => patternLabel[c]).join(", ")}.`);
  return p;
}

const eyes: Record<string, Eye> = {
  right: Eye.Right,
  od: Eye.Right,
  left: Eye.Left,
  os: Eye.Left,
  binocular: Eye.Binocular,
  ou: Eye.Binocular,
};

/** --eye right|left|binocular (or OD/OS/OU). */
export function eyeOption(value: string): Eye {
  const e = eyes[value.toLowerCase()];
  if (e === undefined) throw new InvalidArgumentError("Expected right, left or binocular (or OD, OS, OU).");
  return e;
}
