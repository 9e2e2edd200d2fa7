import type { ProfileName } from "../perimetry/profiles.ts";
import { hashString } from "../perimetry/random.ts";

// Who sits in the headset: each patient id maps to one simulated patient for good (same profile, same field per eye), so
// a patient's results over time look like one person's. The mix is our guess at a glaucoma clinic's.

const MIX: ReadonlyArray<readonly [ProfileName, number]> = [
  ["healthy", 0.4],
  ["early", 0.25],
  ["moderate", 0.13],
  ["advanced", 0.08],
  ["hemianopia", 0.04],
  ["unreliable", 0.1],
];

export const profileForPatient = (patientId: string): ProfileName => {
  let u = hashString(`profile/${patientId}`) / 4294967296;
  for (const [name, share] of MIX) {
    if (u < share) return name;
    u -= share;
  }
  return "healthy";
};

/** Age in whole years at `now` (ms), or null without a birthdate. */
export const ageAt = (birthdate: string | null, now: number): number | null => {
  if (!birthdate) return null;
  const born = Date.parse(`${birthdate}T00:00:00Z`);
  if (Number.isNaN(born)) return null;
  return Math.max(5, Math.floor((now - born) / (365.25 * 24 * 3600 * 1000)));
};
