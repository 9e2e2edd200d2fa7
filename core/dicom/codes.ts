import { Pattern, Strategy } from "../model/enums.ts";

// Coded entries the OPV and Encapsulated PDF instances carry (PS3.16; the DCM meanings as dcmtk's dcmsr/codes/dcm.h
// lists them). Patterns and strategies the standard's baseline context groups (CID 4250 test patterns, CID 4251 test
// strategies) have no entry for are coded in our own scheme, 99ISOPTER, as a baseline group allows.

export interface Code {
  readonly CodeValue: string;
  readonly CodingSchemeDesignator: string;
  readonly CodeMeaning: string;
}

const dcm = (CodeValue: string, CodeMeaning: string): Code => ({ CodeValue, CodingSchemeDesignator: "DCM", CodeMeaning });
const sct = (CodeValue: string, CodeMeaning: string): Code => ({ CodeValue, CodingSchemeDesignator: "SCT", CodeMeaning });
/** Our private coding scheme (PS3.3 8.2: designators starting "99" are local). Code values are SH: 16 characters at most. */
export const ISOPTER_SCHEME = "99ISOPTER";
const own = (CodeValue: string, CodeMeaning: string): Code => ({ CodeValue, CodingSchemeDesignator: ISOPTER_SCHEME, CodeMeaning });

/** CID 4250 Visual Field Static Perimetry Test Patterns. */
export const patternCode: Record<Pattern, Code> = {
  [Pattern.Undefined]: own("PATTERN-UNKNOWN", "Visual Field test pattern not recorded"),
  [Pattern.P24_2]: dcm("111800", "Visual Field 24-2 Test Pattern"),
  [Pattern.P10_2]: dcm("111801", "Visual Field 10-2 Test Pattern"),
  [Pattern.P30_2]: dcm("111802", "Visual Field 30-2 Test Pattern"),
  [Pattern.G]: dcm("111810", "Visual Field G Test Pattern"),
  // Esterman: the 120 binocular points of the full field.
  [Pattern.Esterman]: dcm("111809", "Visual Field Full Field 120 Point Test Pattern"),
  // C40: 40 central points within 30 degrees (our definition, core/analytics/patterns.ts).
  [Pattern.C40]: dcm("111805", "Visual Field Central 40 Point Test Pattern"),
  [Pattern.S28]: own("S28", "Visual Field S28 Screening Test Pattern"),
};

/** CID 4251 Visual Field Static Perimetry Test Strategies. */
export const strategyCode: Record<Strategy, Code> = {
  [Strategy.Undefined]: own("STRATEGY-UNKNOWN", "Visual Field test strategy not recorded"),
  [Strategy.Normal]: dcm("111827", "Visual Field Normal Test Strategy"),
  [Strategy.DS]: dcm("111826", "Visual Field Dynamic Test Strategy"),
  [Strategy.OneLevel]: dcm("111828", "Visual Field 1-LT Test Strategy"),
  [Strategy.SORS]: own("SORS", "Visual Field SORS Test Strategy"),
  [Strategy.SORS_screening]: own("SORS-SCREENING", "Visual Field SORS Screening Test Strategy"),
  [Strategy.Supra]: own("SUPRA", "Visual Field Supra-threshold Screening Test Strategy"),
};

/** CID 4252-style screening test modes: supra-threshold levels follow the age-corrected normal; 1LT one level. */
export const screeningModeCode: Partial<Record<Strategy, Code>> = {
  [Strategy.Supra]: dcm("111838", "Age corrected"),
  [Strategy.OneLevel]: dcm("111840", "Single luminance"),
};

export const white = sct("371251000", "White color");
export const fixationByGaze = dcm("111843", "Automated Optical");
export const fixationByBlindSpot = dcm("111844", "Blind Spot Monitoring");

export const visualFieldIndex = dcm("111852", "Visual Field Index");
export const ghtAnalysis = dcm("111855", "Glaucoma Hemifield Test Analysis");
export const ghtOutcome: Record<string, Code> = {
  "outside normal limits": dcm("111847", "Outside normal limits"),
  borderline: dcm("111848", "Borderline"),
  "abnormally high sensitivity": dcm("111849", "Abnormally high sensitivity"),
  "general reduction of sensitivity": dcm("111850", "General reduction in sensitivity"),
  // CID 4254 codes "within normal limits" in SNOMED CT (125112009), not as 17621005 "Normal".
  "within normal limits": sct("125112009", "Within normal limits"),
};
export const estermanScore = own("ESTERMAN-SCORE", "Esterman efficiency score");
export const seenShare = own("SEEN-PERCENT", "Share of locations seen");
export const percentUnit: Code = { CodeValue: "%", CodingSchemeDesignator: "UCUM", CodeMeaning: "percent" };

/** Algorithm families of the analysis (our own: the standard has no code for them). */
export const totalDeviationAlgorithm = own("TD-AGE", "Total deviation from an age-linear normal");
export const patternDeviationAlgorithm = own("PD-GH", "Pattern deviation after the general height");
export const globalProbabilityAlgorithm = own("GLOBAL-LEVELS", "Global index against the controls' percentiles");

/** Encapsulated PDF: the document's kind. */
export const perimetryReport = sct("103752008", "Perimetry");
