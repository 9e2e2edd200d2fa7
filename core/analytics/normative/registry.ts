import { Pattern } from "../../model/enums.ts";
import type { NormativeTables } from "./tables.ts";
import { sunyiu24d2 } from "./generated/sunyiu-24d2.ts";
import { sunyiu10d2 } from "./generated/sunyiu-10d2.ts";
import { agelinearSunyiu24d2 } from "./generated/agelinear-sunyiu-24d2.ts";
import { agelinearSunyiu10d2 } from "./generated/agelinear-sunyiu-10d2.ts";
import { iowa30d2 } from "./generated/iowa-30d2.ts";
import { iowaG1 } from "./generated/iowa-g1.ts";
import { iowa30d2Model2 } from "./generated/iowa-30d2-2.ts";
import { iowaG1Model2 } from "./generated/iowa-g1-2.ts";

/**
 * Normative database versions. A result's `normativeVersion` names a set of per-pattern tables.
 *
 * - DEFAULT_NORMATIVE_VERSION ("visualfields-sunyiu-2024-06-05"): applies to older results without a version (the accounts
 *   seed §9: "a default version string applies to older results and contains the date 2024-06-05") and is the version
 *   new results get. It uses visualFields 1.0.8's stored "smooth" SUNY-IU tables (sunyiu_24d2 for 24-2, sunyiu_10d2
 *   for 10-2), so our numbers agree with the reference implementation.
 * - AGE_LINEAR_NORMATIVE_VERSION ("isopter-agelinear-sunyiu-1"): our own age-linear build from the raw SUNY-IU control
 *   fields (normative/age-linear.ts, no smoothing): the model any further version is built with.
 * - FULL_FIELD_NORMATIVE_VERSION ("isopter-fullfield-2026-11-25"): the default's SUNY-IU tables for 24-2 and 10-2
 *   (so those numbers are unchanged) plus 30-2 and G from the Iowa full-field healthy controls (normative/full-field.ts,
 *   model 1: anchored to SUNY-IU 24-2's mean, the Iowa test's spread). Results taken with it keep reading with it.
 * - FULL_FIELD_2_NORMATIVE_VERSION ("isopter-fullfield-2-2026-11-25"), the version new results get: the same with
 *   model 2, anchored to SUNY-IU 24-2's spread too (healthy Humphrey fields flagged 5.6 % below 5 %, model 1 12.7 %).
 *   Older results keep the default, which has no 30-2 or G tables.
 * - The package's own names "sunyiu_24d2" and "sunyiu_10d2" are accepted as versions too (research use, CLI).
 *
 * Every table is derived from public healthy controls, none is a manufacturer's database (`normativeDatabaseName`).
 * Patterns without a table under a version (S28, C40 and Esterman always) have NO normative database: analysis reports
 * `normative: null` and such results cannot be a progression baseline (accounts seed §4).
 */
export const DEFAULT_NORMATIVE_VERSION = "visualfields-sunyiu-2024-06-05";
export const AGE_LINEAR_NORMATIVE_VERSION = "isopter-agelinear-sunyiu-1";
export const FULL_FIELD_NORMATIVE_VERSION = "isopter-fullfield-2026-11-25";
export const FULL_FIELD_2_NORMATIVE_VERSION = "isopter-fullfield-2-2026-11-25";
export const CURRENT_NORMATIVE_VERSION = FULL_FIELD_2_NORMATIVE_VERSION;

type VersionSet = Partial<Record<Pattern, NormativeTables>>;

const versions: Readonly<Record<string, VersionSet>> = {
  [DEFAULT_NORMATIVE_VERSION]: { [Pattern.P24_2]: sunyiu24d2, [Pattern.P10_2]: sunyiu10d2 },
  [FULL_FIELD_NORMATIVE_VERSION]: {
    [Pattern.P24_2]: sunyiu24d2,
    [Pattern.P10_2]: sunyiu10d2,
    [Pattern.P30_2]: iowa30d2,
    [Pattern.G]: iowaG1,
  },
  [FULL_FIELD_2_NORMATIVE_VERSION]: {
    [Pattern.P24_2]: sunyiu24d2,
    [Pattern.P10_2]: sunyiu10d2,
    [Pattern.P30_2]: iowa30d2Model2,
    [Pattern.G]: iowaG1Model2,
  },
  [AGE_LINEAR_NORMATIVE_VERSION]: { [Pattern.P24_2]: agelinearSunyiu24d2, [Pattern.P10_2]: agelinearSunyiu10d2 },
  sunyiu_24d2: { [Pattern.P24_2]: sunyiu24d2 },
  sunyiu_10d2: { [Pattern.P10_2]: sunyiu10d2 },
};

export const normativeVersions: readonly string[] = Object.keys(versions);

/** The version a result is analysed with: its own, or the default when it has none (older results). */
export function effectiveNormativeVersion(normativeVersion: string | null | undefined): string {
  return normativeVersion === null || normativeVersion === undefined || normativeVersion === ""
    ? DEFAULT_NORMATIVE_VERSION
    : normativeVersion;
}

/**
 * The tables for a pattern under a version, or null ("no normative database"): for patterns without public controls
 * and for unknown version strings.
 */
export function getNormativeDatabase(pattern: Pattern, normativeVersion?: string | null): NormativeTables | null {
  return versions[effectiveNormativeVersion(normativeVersion)]?.[pattern] ?? null;
}

export function hasNormativeDatabase(pattern: Pattern, normativeVersion?: string | null): boolean {
  return getNormativeDatabase(pattern, normativeVersion) !== null;
}

/** What each table is, named for screens, print and exports (proper names: not translated). */
const tableNames: Readonly<Record<string, string>> = {
  sunyiu_24d2: "visualFields 1.0.8 SUNY-IU 24-2 (sunyiu_24d2)",
  sunyiu_10d2: "visualFields 1.0.8 SUNY-IU 10-2 (sunyiu_10d2)",
  agelinear_sunyiu_24d2: "Isopter age-linear SUNY-IU 24-2",
  agelinear_sunyiu_10d2: "Isopter age-linear SUNY-IU 10-2",
  isopter_iowa_30d2_1: "Isopter full-field model 1, 30-2 (Iowa healthy controls)",
  isopter_iowa_g1_1: "Isopter full-field model 1, G (Iowa healthy controls)",
  isopter_iowa_30d2_2: "Isopter full-field model 2, 30-2 (Iowa healthy controls, SUNY-IU spread)",
  isopter_iowa_g1_2: "Isopter full-field model 2, G (Iowa healthy controls, SUNY-IU spread)",
};

/** The table a pattern is read with under a version, by name alone (exports that give the version beside it); null when there is none. */
export function normativeTableName(pattern: Pattern, normativeVersion?: string | null): string | null {
  const t = getNormativeDatabase(pattern, normativeVersion);
  return t ? (tableNames[t.version] ?? t.version) : null;
}

/** The database a pattern is read with under a version, as "name · version"; null when there is none. */
export function normativeDatabaseName(pattern: Pattern, normativeVersion?: string | null): string | null {
  const table = normativeTableName(pattern, normativeVersion);
  return table === null ? null : `${table} · ${effectiveNormativeVersion(normativeVersion)}`;
}
