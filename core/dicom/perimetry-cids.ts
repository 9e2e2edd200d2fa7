// The standard's context groups for static perimetry, as data: what an imported OPV may say, and what it means.
//
// Source: DICOM PS3.16 (Content Mapping Resource), CIDs 4250-4257 and 4280, and the DCM coding scheme (PS3.16 Annex D),
// checked against the FHIR rendering of the standard in github.com/bvdh/dicom-terminology-in-fhir as of June 2026
// (input/fsh/ValueSet-dicom-cid-4250-... to -4257-..., -4280-...; CodeSystem-dicom-dcm-codesystem.fsh, "DCM" code
// system version 2026.2.20260327; the guide is built from DICOM 2025e). CIDs 4250-4257 carry context group version
// 20100827 (unchanged since), CID 4280 20250707. The SRT (SNOMED RT) equivalents are those the same repository's
// earlier rendering lists beside the SNOMED CT codes (the standard moved these groups from SRT to SCT; files written
// before that still carry SRT).
// Code meanings are the standard's; a reader should match on designator and value, never on the meaning.
//
// What the standard does not have:
// - SITA Faster: CID 4251 has SITA-Standard (111815), SITA-SWAP (111816) and SITA-Fast (111817), and nothing for SITA
//   Faster; no code in that DCM code system names it. A Humphrey perimeter writing a SITA Faster test must
//   use another coding scheme (public HFA readers key on the private code value "OPVTS101"; 24-2C likewise has no CID
//   4250 code, "OPVTP128"). An importer keeps the strategy as the file names it (its code meaning).
// - MD and PSD as coded concepts for the Visual Field Global Results Index Sequence: CID 4257 (global index names) has
//   VFI, the diffuse and local loss, the GHT and the optical fixation measurements only. MD and PSD have their own
//   attributes, Global Deviation From Normal (0024,0066) and Localized Deviation From Normal (0024,0068) in the Results
//   Normals Sequence. The DCM scheme does define 131248 / 131249 ("Visual Field Global / Localized Deviation from
//   Normal", stated to correspond to those attributes) for the ophthalmic key-measurement reports, outside CID 4257;
//   they are listed below as `keyMeasurementConcepts` so a reader can recognise a vendor that uses them as index names.

/** A coded entry as DICOM's Code Sequence Macro (Table 8.8-1) carries it. */
export interface CodedEntry {
  readonly CodeValue: string;
  readonly CodingSchemeDesignator: string;
  readonly CodeMeaning: string;
}

const entry =
  (CodingSchemeDesignator: string) =>
  (CodeValue: string, CodeMeaning: string): CodedEntry =>
    Object.freeze({ CodeValue, CodingSchemeDesignator, CodeMeaning });
const dcm = entry("DCM");
const sct = entry("SCT");
const srt = entry("SRT");

/** CID 4250 Visual Field Static Perimetry Test Pattern. */
export const cid4250: readonly CodedEntry[] = Object.freeze([
  dcm("111800", "Visual Field 24-2 Test Pattern"),
  dcm("111801", "Visual Field 10-2 Test Pattern"),
  dcm("111802", "Visual Field 30-2 Test Pattern"),
  dcm("111803", "Visual Field 60-4 Test Pattern"),
  dcm("111804", "Visual Field Macula Test Pattern"),
  dcm("111805", "Visual Field Central 40 Point Test Pattern"),
  dcm("111806", "Visual Field Central 76 Point Test Pattern"),
  dcm("111807", "Visual Field Peripheral 60 Point Test Pattern"),
  dcm("111808", "Visual Field Full Field 81 Point Test Pattern"),
  dcm("111809", "Visual Field Full Field 120 Point Test Pattern"),
  dcm("111810", "Visual Field G Test Pattern"),
  dcm("111811", "Visual Field M Test Pattern"),
  dcm("111812", "Visual Field 07 Test Pattern"),
  dcm("111813", "Visual Field LVC Test Pattern"),
  // "General test corresponding to the 30-2 but excluding the 2 test locations in the blind spot area" (74 points).
  dcm("111814", "Visual Field Central Test Pattern"),
]);

/** CID 4251 Visual Field Static Perimetry Test Strategy. No SITA Faster (see the header). */
export const cid4251: readonly CodedEntry[] = Object.freeze([
  dcm("111815", "Visual Field SITA-Standard Test Strategy"),
  dcm("111816", "Visual Field SITA-SWAP Test Strategy"),
  dcm("111817", "Visual Field SITA-Fast Test Strategy"),
  dcm("111818", "Visual Field Full Threshold Test Strategy"),
  dcm("111819", "Visual Field FastPac Test Strategy"),
  dcm("111820", "Visual Field Full From Prior Test Strategy"),
  dcm("111821", "Visual Field Optima Test Strategy"),
  dcm("111822", "Visual Field Two-Zone Test Strategy"),
  dcm("111823", "Visual Field Three-Zone Test Strategy"),
  dcm("111824", "Visual Field Quantify-Defects Test Strategy"),
  dcm("111825", "Visual Field TOP Test Strategy"),
  dcm("111826", "Visual Field Dynamic Test Strategy"),
  dcm("111827", "Visual Field Normal Test Strategy"),
  dcm("111828", "Visual Field 1-LT Test Strategy"),
  dcm("111829", "Visual Field 2-LT Test Strategy"),
  dcm("111830", "Visual Field LVS Test Strategy"),
  dcm("111831", "Visual Field GATE Test Strategy"),
  dcm("111832", "Visual Field GATEi Test Strategy"),
  dcm("111833", "Visual Field 2LT-Dynamic Test Strategy"),
  dcm("111834", "Visual Field 2LT-Normal Test Strategy"),
  dcm("111835", "Visual Field Fast Threshold Test Strategy"),
  dcm("111836", "Visual Field CLIP Test Strategy"),
  dcm("111837", "Visual Field CLASS Strategy"),
]);

/** CID 4252 Visual Field Static Perimetry Screening Test Mode (Screening Test Mode Code Sequence (0024,0016)). */
export const cid4252: readonly CodedEntry[] = Object.freeze([
  dcm("111838", "Age corrected"),
  dcm("111839", "Threshold related"),
  dcm("111840", "Single luminance"),
  dcm("111841", "Foveal sensitivity related"),
  dcm("111842", "Related to non macular sensitivity"),
  dcm("121410", "User chosen value"),
]);

/** CID 4253 Visual Field Static Perimetry Fixation Strategy (Fixation Monitoring Code Sequence (0024,0033)). */
export const cid4253: readonly CodedEntry[] = Object.freeze([
  dcm("111843", "Automated Optical"),
  dcm("111844", "Blind Spot Monitoring"),
  dcm("111845", "Macular Fixation Testing"),
  dcm("111846", "Observation by Examiner"),
  sct("260413007", "None"),
]);

/**
 * CID 4254 Visual Field Static Perimetry Test Analysis Result: the outcome of an analysis such as the Glaucoma
 * Hemifield Test. "Within normal limits" is SNOMED CT 125112009 (not 17621005 "Normal").
 */
export const cid4254: readonly CodedEntry[] = Object.freeze([
  dcm("111847", "Outside normal limits"),
  dcm("111848", "Borderline"),
  dcm("111849", "Abnormally high sensitivity"),
  dcm("111850", "General reduction in sensitivity"),
  dcm("111851", "Borderline and general reduction in sensitivity"),
  sct("125112009", "Within normal limits"),
]);

/** CID 4255 Visual Field Illumination Color (Stimulus Color and Background Illumination Color Code Sequences). */
export const cid4255: readonly CodedEntry[] = Object.freeze([
  sct("371244009", "Yellow"),
  sct("371251000", "White"),
  sct("371240000", "Red"),
  sct("405738005", "Blue"),
  sct("371246006", "Green"),
]);

/**
 * CID 4256 Visual Field Procedure Modifier: screening or diagnostic, given within the Performed Protocol Code Sequence
 * (Protocol Context Sequence (0040,0440), and its Content Item Modifier Sequence (0040,0441), which the OPV modules'
 * conditions name).
 */
export const cid4256: readonly CodedEntry[] = Object.freeze([sct("360156006", "Screening"), sct("261004008", "Diagnostic")]);

/** CID 4257 Visual Field Global Index Name (concept names in the Visual Field Global Results Index Sequence). */
export const cid4257: readonly CodedEntry[] = Object.freeze([
  dcm("111852", "Visual Field Index"),
  dcm("111853", "Visual Field Loss Due to Diffuse Defect"),
  dcm("111854", "Visual Field Loss Due to Local Defect"),
  dcm("111855", "Glaucoma Hemifield Test Analysis"),
  dcm("111856", "Optical Fixation Measurements"),
]);

/** CID 4280 Visual Field Measurements (the ophthalmic key-measurement reports' visual field indices). */
export const cid4280: readonly CodedEntry[] = Object.freeze([
  dcm("111852", "Visual Field Index"),
  dcm("111853", "Visual Field Loss Due to Diffuse Defect"),
  dcm("111854", "Visual Field Loss Due to Local Defect"),
]);

/**
 * DCM concepts for the key measurements of a visual field (PS3.16 Annex D), each stated to correspond to an OPV
 * attribute. Not in CID 4257: a file that names MD or PSD in its global results index sequence with these is using
 * them beyond their context group; the attributes in the Results Normals Sequence remain the standard's place.
 */
export const keyMeasurementConcepts = Object.freeze({
  /** Global Deviation From Normal (0024,0066): MD. */
  globalDeviation: dcm("131248", "Visual Field Global Deviation from Normal"),
  /** Localized Deviation From Normal (0024,0068): PSD (or the Octopus sLV). */
  localizedDeviation: dcm("131249", "Visual Field Localized Deviation From Normal"),
  /** False Positives Quantity over Positive Catch Trials Quantity. */
  falsePositiveRatio: dcm("131250", "Fixation false positive ratio"),
  /** False Positives Estimate (0024,0054), percent. */
  falsePositivePercent: dcm("131251", "Fixation false positive percent"),
  /** False Negatives Quantity over Negative Catch Trials Quantity. */
  falseNegativeRatio: dcm("131252", "Fixation false negative ratio"),
  /** False Negatives Estimate (0024,0046), percent. */
  falseNegativePercent: dcm("131253", "Fixation false negative percent"),
  /** Patient Not Properly Fixated Quantity over Fixation Checked Quantity. */
  fixationLossRatio: dcm("131254", "Fixation losses ratio"),
});

/** Named entries an importer or a test needs by meaning rather than by searching a table. */
export const perimetryCodes = Object.freeze({
  pattern24_2: cid4250[0]!,
  pattern10_2: cid4250[1]!,
  pattern30_2: cid4250[2]!,
  sitaStandard: cid4251[0]!,
  sitaSwap: cid4251[1]!,
  sitaFast: cid4251[2]!,
  fullThreshold: cid4251[3]!,
  fastPac: cid4251[4]!,
  automatedOptical: cid4253[0]!,
  blindSpotMonitoring: cid4253[1]!,
  outsideNormalLimits: cid4254[0]!,
  borderline: cid4254[1]!,
  abnormallyHighSensitivity: cid4254[2]!,
  generalReduction: cid4254[3]!,
  borderlineAndGeneralReduction: cid4254[4]!,
  withinNormalLimits: cid4254[5]!,
  white: cid4255[1]!,
  screening: cid4256[0]!,
  diagnostic: cid4256[1]!,
  visualFieldIndex: cid4257[0]!,
  diffuseLoss: cid4257[1]!,
  localLoss: cid4257[2]!,
  ghtAnalysis: cid4257[3]!,
  opticalFixationMeasurements: cid4257[4]!,
});

/**
 * SNOMED RT codes older files carry for entries the standard now codes in SNOMED CT (CIDs 4253-4256), with the SNOMED
 * CT entry each stands for. Keyed by SRT code value.
 */
export const legacySrt: ReadonlyMap<string, { readonly srt: CodedEntry; readonly sct: CodedEntry }> = new Map(
  (
    [
      [srt("R-40775", "None"), cid4253[4]!],
      [srt("M-00101", "Within normal limits"), cid4254[5]!],
      [srt("G-A11D", "Yellow"), cid4255[0]!],
      [srt("G-A12B", "White"), cid4255[1]!],
      [srt("G-A11A", "Red"), cid4255[2]!],
      [srt("G-A12F", "Blue"), cid4255[3]!],
      [srt("G-A11E", "Green"), cid4255[4]!],
      [srt("R-42453", "Screening"), cid4256[0]!],
      [srt("R-408C3", "Diagnostic"), cid4256[1]!],
    ] as const
  ).map(([old, current]) => [old.CodeValue, Object.freeze({ srt: old, sct: current })]),
);

/** Designators compare case-insensitively and without padding; an SRT code with a SNOMED CT successor reads as it. */
const normalise = (designator: string, value: string): { designator: string; value: string } => {
  const d = designator.trim().toUpperCase();
  const v = value.trim();
  if (d === "SRT") {
    const current = legacySrt.get(v);
    if (current) return { designator: current.sct.CodingSchemeDesignator, value: current.sct.CodeValue };
  }
  return { designator: d, value: v };
};

const lookup = (table: readonly CodedEntry[]) => {
  const byKey = new Map(table.map((e) => [`${e.CodingSchemeDesignator}\u0000${e.CodeValue}`, e]));
  return (designator: string | null | undefined, value: string | null | undefined): CodedEntry | undefined => {
    if (!designator || !value) return undefined;
    const n = normalise(designator, value);
    return byKey.get(`${n.designator}\u0000${n.value}`);
  };
};

/** The CID 4250 test pattern a (designator, value) pair names, or undefined. */
export const cid4250ByCode = lookup(cid4250);
/** The CID 4251 test strategy a (designator, value) pair names, or undefined. */
export const cid4251ByCode = lookup(cid4251);
/** The CID 4252 screening test mode, or undefined. */
export const cid4252ByCode = lookup(cid4252);
/** The CID 4253 fixation strategy (SRT "None" read as its SNOMED CT code), or undefined. */
export const cid4253ByCode = lookup(cid4253);
/** The CID 4254 analysis result (SRT M-00101 read as SNOMED CT 125112009), or undefined. */
export const cid4254ByCode = lookup(cid4254);
/** The CID 4255 illumination colour (SRT colours read as their SNOMED CT codes), or undefined. */
export const cid4255ByCode = lookup(cid4255);
/** The CID 4256 procedure modifier (SRT R-42453 / R-408C3 read as SNOMED CT), or undefined. */
export const cid4256ByCode = lookup(cid4256);
/** The CID 4257 global index name, or undefined. */
export const cid4257ByCode = lookup(cid4257);
/** A key-measurement concept (131248-131254), or undefined. */
export const keyMeasurementByCode = lookup(Object.values(keyMeasurementConcepts));
