import { msg } from "@lingui/core/macro";
import type { MessageDescriptor } from "@lingui/core";
import type { MethodId } from "../../../core/analytics/progression/criteria/verdict.ts";
import measured from "./progression-accuracy.json";

// What the Support page "How reliable is progression analysis" shows: the table npm run bench:progression measured
// and wrote into progression-accuracy.json (bench/progression/report.ts writes that shape), and each method's paper.

export interface AccuracyRate {
  readonly worsening: number;
  readonly improving: number;
  readonly judged: number;
}
export interface AccuracyCohort {
  readonly id: string;
  readonly kind: "stable" | "diffuse" | "localised";
  readonly rateDbPerYear: number;
  readonly fpr: number;
  readonly fnr: number;
  readonly learningDb: number;
}
export interface RetestSd {
  readonly sensitivity: number;
  readonly sd: number | null;
  readonly locations: number;
}
export interface ProgressionAccuracy {
  readonly measuredOn: string;
  readonly commit: string;
  readonly command: string;
  readonly followUp: {
    readonly pattern: string;
    readonly strategy: string;
    readonly intervalMonths: number;
    readonly visits: number;
    readonly ageRange: readonly number[];
    readonly eyesPerCohort: number;
    readonly clusterLocations: number;
  };
  readonly observer: {
    readonly published: readonly { readonly sensitivity: number; readonly low: number; readonly high: number }[];
    readonly before: readonly RetestSd[];
    readonly after: readonly RetestSd[];
  };
  readonly cohorts: readonly AccuracyCohort[];
  readonly methods: readonly MethodId[];
  readonly specificity: Record<string, Record<MethodId, { readonly visits5: AccuracyRate; readonly visits10: AccuracyRate }>>;
  readonly sensitivity: Record<
    string,
    Record<
      MethodId,
      { readonly years2: AccuracyRate; readonly years3: AccuracyRate; readonly years5: AccuracyRate; readonly medianYears: number | null }
    >
  >;
  readonly speed: { readonly eyes: number; readonly visits: number; readonly workers: number; readonly seconds: number };
}

export const accuracy = measured as ProgressionAccuracy;

export interface MethodCredit {
  /** What the method does, in a sentence. */
  readonly what: MessageDescriptor;
  /** The papers and manuals it follows (authors, journal, year: bibliographic references stay as published). */
  readonly references: readonly string[];
}

export const methodCredits: Record<MethodId, MethodCredit> = {
  events: {
    what: msg`Pattern deviation at each location against the mean of two baseline tests: possible progression when 3 or more locations deteriorate on 2 consecutive tests, likely progression on 3.`,
    references: ["Humphrey Field Analyzer II-i user manual (Carl Zeiss Meditec), Guided Progression Analysis"],
  },
  poplr: {
    what: msg`Pointwise linear regression of total deviation at every location, its p-values combined and compared with the same series in shuffled orders.`,
    references: ["O'Leary N, Chauhan BC, Artes PH. Invest Ophthalmol Vis Sci 2012;53:6776-6784"],
  },
  "md-slope": {
    what: msg`Linear regression of the mean deviation over time, worsening when the slope is negative and significant.`,
    references: ["visualFields (R), Marín-Franch I, Swanson WH: global linear regression"],
  },
  "vfi-trend": {
    what: msg`Linear regression of the visual field index under the rules of Humphrey's Guided Progression Analysis: at least 5 tests over 2 years.`,
    references: [
      "Bengtsson B, Heijl A. Am J Ophthalmol 2008;145:343-353",
      "Humphrey Field Analyzer II-i user manual (Carl Zeiss Meditec), Guided Progression Analysis",
    ],
  },
  cigts: {
    what: msg`The CIGTS score 3 or more above the mean of two baseline tests, confirmed on 3 consecutive tests.`,
    references: ["Musch DC, Lichter PR, Guire KE, Standardi CL. Ophthalmology 1999;106:653-662"],
  },
  "plr-nouri-2012": {
    what: msg`Pointwise linear regression of total deviation: a location changes at 1 dB/year or more with p ≤ 1 %, confirmed without the last test and without the one before.`,
    references: ["Nouri-Mahdavi K, et al. Invest Ophthalmol Vis Sci 2012;53:2390-2394"],
  },
  "plr-three-omitting": {
    what: msg`The same regression confirmed by three fits that each end on one of the last three tests.`,
    references: [
      "Gardiner SK, Crabb DP. Invest Ophthalmol Vis Sci 2002;43:1400-1407",
      "Strouthidis NG, et al. Invest Ophthalmol Vis Sci 2006;47:2904-2910 (specificity 95.2-98.2 %)",
    ],
  },
  "schell-2014": {
    what: msg`Mean deviation 3 dB or more below the mean of two baseline tests on the last two tests.`,
    references: ["Schell GJ, Lavieri MS, Helm JE, et al. Ophthalmology 2014;121:1539-1546"],
  },
  "cluster-trend": {
    what: msg`Linear regression of the mean defect of each of ten nerve-fibre-bundle clusters, worsening when any cluster worsens significantly.`,
    references: ["Haag-Streit EyeSuite, cluster trend analysis", "Naghizadeh F, Holló G. J Glaucoma 2014"],
  },
};

/** The simulation's own sources. */
export const simulationReferences: readonly string[] = [
  "Gardiner SK. Invest Ophthalmol Vis Sci 2018;59:3667-3674 (test-retest variability by sensitivity)",
  "Heijl A, Bengtsson B. Arch Ophthalmol 1996;114:19-22 (learning effect)",
  "Henson DB, Chaudry S, Artes PH, et al. Invest Ophthalmol Vis Sci 2000;41:417-421 (frequency of seeing)",
  "vfprogression (R), Elze T, et al.: the rules of CIGTS, PLR, Schell 2014 and the VFI criterion as described there",
];
