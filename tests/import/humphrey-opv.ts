// Humphrey-style OPV files for the import tests, built from the standard's attributes (PS3.3 A.65 and C.8.26) the way a
// Humphrey Field Analyzer's export is laid out: the device's own point grid, SITA or Full Threshold, and the device's
// own analysis inside (total and pattern deviation per point with probabilities, MD, PSD, VFI, GHT). Written with
// dcmjs as Isopter's own export is (cli/export/dicom.ts), from a naturalized dataset with `_meta`.
//
// Nothing here comes from Isopter's patterns or analysis: the grids are spelled out below from the perimeter's own
// layout, so a test can check that Isopter's geometry and the file's agree instead of assuming it.
//
// What the standard leaves open, and what these files do there (an importer must choose for each):
// - SITA Faster has no CID 4251 code (core/dicom/perimetry-cids.ts): it is written with a private code, as is the
//   algorithm family of the device's analysis (the OPV modules have no baseline context group for it).
// - The physiological blind spot is an ordinary test point: the 24-2 and 30-2 grids carry (+-15, +-3) with a
//   sensitivity, and the standard has no way to say that a point is left out of the analysis. Here such points carry a
//   total deviation (the normals item is required at every point, its total deviation Type 1) but no pattern deviation
//   (its flag NO).
// - Screening or diagnostic (CID 4256): written as the value of a Protocol Context item ("Has intent") of the pattern's
//   code, and again in that item's Content Item Modifier Sequence, since the modules name both places.
// - A point not seen: Stimulus Results NOT SEEN, and (by default) a Sensitivity Value of 0 as well, which the
//   perimeter prints as "<0". Seen at the brightest stimulus is SEEN AT MAX with 0 dB.
// - Probabilities are percentiles with no statement of banding: these files write the band's bound (0.5, 1, 2, 5, 10)
//   where a value is outside normal limits and 100 where it is not.
// - Laterality: Measurement Laterality (Type 1) only; the series' Laterality may not be present beside it (an option
//   writes it anyway, as some devices do).
// - Times are local to the device; Timezone Offset From UTC is written only when the options give one.
import { randomUUID } from "node:crypto";
import dcmjs from "dcmjs";
import { type CodedEntry, perimetryCodes } from "../../core/dicom/perimetry-cids.ts";

export const OPV_SOP_CLASS_UID = "1.2.840.10008.5.1.4.1.1.80.1";
/** Explicit VR little endian. */
const TRANSFER_SYNTAX = "1.2.840.10008.1.2.1";

export type HumphreyPattern = "24-2" | "30-2" | "10-2";
export type HumphreyStrategy = "SITA Standard" | "SITA Fast" | "SITA Faster" | "Full Threshold";
export type HumphreyEye = "OD" | "OS";
export type GhtOutcome =
  | "withinNormalLimits"
  | "borderline"
  | "outsideNormalLimits"
  | "generalReduction"
  | "borderlineAndGeneralReduction"
  | "abnormallyHighSensitivity";

export interface HumphreyPoint {
  /** Degrees, as the patient sees the field: toward the right positive (a right eye's blind spot at +15). */
  readonly x: number;
  /** Degrees, up positive. */
  readonly y: number;
  /** One of the two points at the physiological blind spot (24-2 and 30-2). */
  readonly blindSpot: boolean;
}

/**
 * A private coding scheme for what the standard has no code for (PS3.3 8.2: designators beginning "99" are private).
 * The Humphrey's own designator is not published in what the tests could read; the import must not depend on it.
 */
export const DEVICE_PRIVATE_SCHEME = "99CZM";
const privateCode = (CodeValue: string, CodeMeaning: string): CodedEntry => ({
  CodeValue,
  CodingSchemeDesignator: DEVICE_PRIVATE_SCHEME,
  CodeMeaning,
});

/** SITA Faster: no code in CID 4251, so a private one (public HFA readers key on this code value). */
export const sitaFasterCode = privateCode("OPVTS101", "SITA Faster");
/** The device's analysis, as the algorithm family of its probabilities. */
const deviceAnalysis = privateCode("HFA-STATPAC", "Humphrey STATPAC analysis");

export const patternCodes: Record<HumphreyPattern, CodedEntry> = {
  "24-2": perimetryCodes.pattern24_2,
  "30-2": perimetryCodes.pattern30_2,
  "10-2": perimetryCodes.pattern10_2,
};

export const strategyCodes: Record<HumphreyStrategy, CodedEntry> = {
  "SITA Standard": perimetryCodes.sitaStandard,
  "SITA Fast": perimetryCodes.sitaFast,
  "SITA Faster": sitaFasterCode,
  "Full Threshold": perimetryCodes.fullThreshold,
};

export const ghtCodes: Record<GhtOutcome, CodedEntry> = {
  withinNormalLimits: perimetryCodes.withinNormalLimits,
  borderline: perimetryCodes.borderline,
  outsideNormalLimits: perimetryCodes.outsideNormalLimits,
  generalReduction: perimetryCodes.generalReduction,
  borderlineAndGeneralReduction: perimetryCodes.borderlineAndGeneralReduction,
  abnormallyHighSensitivity: perimetryCodes.abnormallyHighSensitivity,
};

/**
 * The grids of a right eye as the patient sees them, row by row from the top: [y, the x values of the row]. The 30-2
 * is every point of the 6-degree grid offset 3 degrees from both meridians within 30 degrees (76); the 24-2 the rows
 * within 24 degrees plus the two nasal points at 27 degrees beside the horizontal meridian (54); the 10-2 the 2-degree
 * grid offset 1 degree from the meridians within 10 degrees (68).
 */
const span = (from: number, to: number, step: number) => {
  const out: number[] = [];
  for (let v = from; v <= to; v += step) out.push(v);
  return out;
};
const rightEyeRows: Record<HumphreyPattern, ReadonlyArray<readonly [number, readonly number[]]>> = {
  "30-2": [27, 21, 15, 9, 3, -3, -9, -15, -21, -27].map((y) => {
    const half = Math.abs(y) === 27 ? 9 : Math.abs(y) === 21 ? 15 : Math.abs(y) === 15 ? 21 : 27;
    return [y, span(-half, half, 6)] as const;
  }),
  "24-2": [21, 15, 9, 3, -3, -9, -15, -21].map((y) => {
    const a = Math.abs(y);
    // Nasal is left for a right eye: the two 27-degree points sit at x = -27.
    return [y, a === 3 ? span(-27, 21, 6) : span(a === 21 ? -9 : a === 15 ? -15 : -21, a === 21 ? 9 : a === 15 ? 15 : 21, 6)] as const;
  }),
  "10-2": [9, 7, 5, 3, 1, -1, -3, -5, -7, -9].map((y) => {
    const a = Math.abs(y);
    const half = a === 9 ? 1 : a === 7 ? 5 : a === 5 || a === 3 ? 7 : 9;
    return [y, span(-half, half, 2)] as const;
  }),
};

/**
 * The test points of a pattern on one eye, in the order the builder writes them (and takes `sensitivities` in): rows
 * from the top, each from left to right as the patient sees it. A left eye is the right eye's mirror image.
 */
export function humphreyPoints(pattern: HumphreyPattern, eye: HumphreyEye): HumphreyPoint[] {
  const sign = eye === "OD" ? 1 : -1;
  const hasBlindSpot = pattern !== "10-2";
  return rightEyeRows[pattern].flatMap(([y, xs]) => {
    const row = xs.map((x) => ({
      x: x === 0 ? 0 : sign * x,
      y,
      blindSpot: hasBlindSpot && x === 15 && Math.abs(y) === 3,
    }));
    return row.sort((a, b) => a.x - b.x);
  });
}

export interface HumphreyOpvOptions {
  /** The grid and its CID 4250 code; or a code of its own (an unknown pattern), then the points are `grid`'s. */
  readonly pattern?: HumphreyPattern | CodedEntry;
  /** The point grid when `pattern` is a code (default 24-2). */
  readonly grid?: HumphreyPattern;
  /** The strategy and its code (CID 4251; SITA Faster private); or any code (then reported as SITA reports). Default SITA Standard. */
  readonly strategy?: HumphreyStrategy | CodedEntry;
  readonly eye?: HumphreyEye;
  /**
   * dB per point in humphreyPoints' order; null = not seen at the brightest stimulus. Default: a normal field of a
   * 60-year-old with a little noise, the blind-spot points not seen.
   */
  readonly sensitivities?: ReadonlyArray<number | null>;
  /**
   * The device's total deviation per point (integer dB in real files). Every point carries one, the blind-spot points
   * too (the normals item is required at every point once the file has normals); null leaves the point without its
   * normals item, which dciodvfy reports as an error (a corrupt file).
   */
  readonly td?: ReadonlyArray<number | null>;
  /** Percent; default from the band of `td`. */
  readonly tdProbability?: ReadonlyArray<number | null>;
  /** The device's pattern deviation per point; null = none (the GeneralizedDefect flag NO). Blind spots: none. */
  readonly pd?: ReadonlyArray<number | null>;
  readonly pdProbability?: ReadonlyArray<number | null>;
  /** Mean deviation, dB (Global Deviation From Normal). */
  readonly md?: number;
  /** Percent; null writes the probability flag NO. */
  readonly mdProbability?: number | null;
  /** Pattern standard deviation, dB (Localized Deviation From Normal). */
  readonly psd?: number;
  readonly psdProbability?: number | null;
  /** Visual Field Index, percent; null leaves it out. */
  readonly vfi?: number | null;
  readonly vfiProbability?: number | null;
  /** The GHT outcome (CID 4254) or any code; null leaves it out. Default: within normal limits (none for a 10-2). */
  readonly ght?: GhtOutcome | CodedEntry | null;
  /** Full Threshold only: short-term fluctuation and corrected PSD, dB. */
  readonly sf?: number;
  readonly cpsd?: number;
  /** Foveal threshold, dB; null: fovea not measured (the default). */
  readonly fovea?: number | null;
  readonly patient?: {
    /** DICOM PN, "Family^Given". */
    readonly name?: string;
    readonly id?: string;
    /** Issuer of Patient ID; absent unless given. */
    readonly issuer?: string;
    /** YYYYMMDD. */
    readonly birthDate?: string;
    readonly sex?: "F" | "M" | "O";
  };
  /** Writes an empty Patient ID (it is Type 2). */
  readonly omitPatientId?: boolean;
  /** Local date and time of the test, "YYYY-MM-DDTHH:MM:SS". */
  readonly takenAt?: string;
  /** "+0100" or similar; absent unless given. */
  readonly timezoneOffset?: string;
  readonly studyInstanceUid?: string;
  readonly seriesInstanceUid?: string;
  readonly sopInstanceUid?: string;
  /** Another SOP class (a file that is not an OPV). */
  readonly sopClassUid?: string;
  /** Moves every point by this much (points off the grid). */
  readonly pointShift?: { readonly x: number; readonly y: number };
  readonly manufacturer?: string;
  readonly model?: string;
  readonly serialNumber?: string;
  readonly softwareVersions?: string;
  readonly institution?: string;
  /** Sensitivity Value written at a NOT SEEN point; "omit" writes none. Default 0. */
  readonly notSeenSensitivity?: number | "omit";
  /** Write the series' Laterality beside Measurement Laterality, as some devices do (dciodvfy: an error). Default false. */
  readonly seriesLaterality?: boolean;
  readonly durationSeconds?: number;
  readonly stimuli?: number;
  /** Blind-spot (Heijl-Krakau) fixation checks and losses; SITA Faster has none. */
  readonly fixation?: { readonly checked: number; readonly losses: number };
  /** False positive / negative rates in percent (SITA estimates them; Full Threshold counts catch trials). */
  readonly falsePositivePercent?: number;
  readonly falseNegativePercent?: number;
  /** Refraction used for the test. */
  readonly refraction?: { readonly sphere: number; readonly cylinder: number; readonly axis: number };
  readonly pupilMm?: number;
  /** Seed of the default field's noise. */
  readonly seed?: number;
  /** A last change to the dataset before it is written (corrupt or drop anything). */
  readonly mutate?: (dataset: Record<string, unknown>) => void;
}

/** A random UID under 2.25 (a UUID as a decimal integer, PS3.5 B.2). */
export const randomUid = () => `2.25.${BigInt(`0x${randomUUID().replace(/-/g, "")}`).toString()}`;

const isCode = (v: unknown): v is CodedEntry => typeof v === "object" && v !== null && "CodeValue" in v;
const r2 = (v: number) => Math.round(v * 100) / 100;
const r4 = (v: number) => Math.round(v * 10_000) / 10_000;
const yesNo = (b: boolean) => (b ? "YES" : "NO");

/** 1 asb = 1/pi cd/m2: the HFA's background is 31.5 asb, its brightest stimulus 10,000 asb. */
const asb = (v: number) => r4(v / Math.PI);
/** Goldmann III: 4 mm2 at 300 mm, 0.431 degrees across. */
const GOLDMANN_III_AREA = r4((Math.PI * 0.431 ** 2) / 4);

/** The normal sensitivity of a 60-year-old at a point (a smooth hill; only for default values). */
const normalAt = (p: HumphreyPoint) => 31.5 - 0.16 * Math.hypot(p.x, p.y) - (p.y > 0 ? 0.04 * p.y : 0);

/** A small deterministic noise source (LCG) for the default field. */
const noise = (seed: number) => {
  let s = (seed * 2654435761) >>> 0 || 1;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32 - 0.5;
  };
};

/** A deviation's probability as the band bound it falls in (percent), 100 within normal limits. */
export const bandOf = (deviation: number, limits: readonly (readonly [number, number])[]) =>
  limits.find(([limit]) => deviation <= limit)?.[1] ?? 100;
const pointBands = [
  [-9, 0.5],
  [-7, 1],
  [-5, 2],
  [-3, 5],
] as const;
const globalBands = [
  [-12, 0.5],
  [-8, 1],
  [-5, 2],
  [-3, 5],
  [-2, 10],
] as const;

const code = (c: CodedEntry) => ({ CodeValue: c.CodeValue, CodingSchemeDesignator: c.CodingSchemeDesignator, CodeMeaning: c.CodeMeaning });
const algorithm = (name: string, version: string) => ({
  AlgorithmFamilyCodeSequence: [code(deviceAnalysis)],
  AlgorithmName: name,
  AlgorithmVersion: version,
});
const ucumPercent = { CodeValue: "%", CodingSchemeDesignator: "UCUM", CodeMeaning: "percent" };

/** What the builder wrote, for the tests to compare with what the import makes of it. */
export interface HumphreyOpvContent {
  readonly points: readonly HumphreyPoint[];
  readonly sensitivities: ReadonlyArray<number | null>;
  readonly td: ReadonlyArray<number | null>;
  readonly pd: ReadonlyArray<number | null>;
  readonly md: number;
  readonly psd: number;
  readonly vfi: number | null;
  readonly ght: CodedEntry | null;
  readonly patternCode: CodedEntry;
  readonly strategyCode: CodedEntry;
  readonly sopInstanceUid: string;
}

/** The naturalized dataset (with `_meta`) and what it says. */
export function humphreyDataset(options: HumphreyOpvOptions = {}): {
  dataset: Record<string, unknown>;
  content: HumphreyOpvContent;
} {
  const grid: HumphreyPattern = typeof options.pattern === "string" ? options.pattern : (options.grid ?? "24-2");
  const patternCode = isCode(options.pattern) ? options.pattern : patternCodes[grid];
  const strategyName: HumphreyStrategy | null = isCode(options.strategy) ? null : (options.strategy ?? "SITA Standard");
  const strategyCode = isCode(options.strategy) ? options.strategy : strategyCodes[strategyName!];
  const sita = strategyName !== "Full Threshold";
  const faster = strategyName === "SITA Faster";
  const eye = options.eye ?? "OD";
  const points = humphreyPoints(grid, eye);
  const n = points.length;
  const lengthOf = <T>(name: string, a: ReadonlyArray<T> | undefined): ReadonlyArray<T> | undefined => {
    if (a && a.length !== n) throw new Error(`${name}: ${a.length} values for the ${n} points of the ${grid}`);
    return a;
  };
  const rand = noise(options.seed ?? 1);
  const sensitivities =
    lengthOf("sensitivities", options.sensitivities) ??
    points.map((p) => (p.blindSpot ? null : Math.max(0, Math.round(normalAt(p) + 2 * rand()))));
  const td = lengthOf("td", options.td) ?? points.map((p, i) => Math.round((sensitivities[i] ?? 0) - normalAt(p)) || 0);
  const analysed = points.flatMap((p, i) => (p.blindSpot || td[i] === null ? [] : [td[i]!]));
  // The general height: the 85th percentile of the total deviations (the 7th best of a 24-2's 52).
  const sorted = [...analysed].sort((a, b) => b - a);
  const generalHeight = sorted[Math.max(0, Math.floor(sorted.length * 0.15) - 1)] ?? 0;
  const pd = lengthOf("pd", options.pd) ?? points.map((p, i) => (p.blindSpot || td[i] === null ? null : td[i]! - generalHeight || 0));
  const tdProbability = lengthOf("tdProbability", options.tdProbability) ?? td.map((v) => (v === null ? null : bandOf(v, pointBands)));
  const pdProbability = lengthOf("pdProbability", options.pdProbability) ?? pd.map((v) => (v === null ? null : bandOf(v, pointBands)));
  const mean = analysed.reduce((a, b) => a + b, 0) / Math.max(1, analysed.length);
  const md = options.md ?? r2(mean);
  const psd = options.psd ?? r2(Math.sqrt(analysed.reduce((a, v) => a + (v - mean) ** 2, 0) / Math.max(1, analysed.length - 1)));
  const mdProbability = options.mdProbability !== undefined ? options.mdProbability : bandOf(md, globalBands);
  const psdProbability = options.psdProbability !== undefined ? options.psdProbability : bandOf(-psd, globalBands.slice(1));
  const vfi = options.vfi !== undefined ? options.vfi : Math.max(0, Math.min(100, Math.round(100 + 2.5 * Math.min(0, md))));
  const vfiProbability = options.vfiProbability ?? null;
  const ghtOption = options.ght !== undefined ? options.ght : grid === "10-2" ? null : "withinNormalLimits";
  const ght = ghtOption === null ? null : isCode(ghtOption) ? ghtOption : ghtCodes[ghtOption];

  const takenAt = options.takenAt ?? "2024-03-19T10:40:12";
  const [date = "", time = ""] = takenAt.split("T");
  const da = date.replace(/-/g, "");
  const tm = time.replace(/:/g, "");
  const patient = {
    name: "Doe^Jane",
    id: "HFA-0001",
    birthDate: "19630727",
    sex: "F" as const,
    ...options.patient,
  };
  const age = Number(da.slice(0, 4)) - Number(patient.birthDate.slice(0, 4)) - (da.slice(4) < patient.birthDate.slice(4) ? 1 : 0);
  const sopInstanceUid = options.sopInstanceUid ?? randomUid();
  const laterality = eye === "OD" ? "R" : "L";
  const shift = options.pointShift ?? { x: 0, y: 0 };
  const notSeen = options.notSeenSensitivity ?? 0;
  const extent = (axis: "x" | "y") => {
    const values = points.map((p) => p[axis]);
    return Math.max(...values) - Math.min(...values);
  };
  const fixation = options.fixation ?? (faster ? { checked: 0, losses: 0 } : { checked: grid === "30-2" ? 18 : 16, losses: 1 });
  const fpPercent = options.falsePositivePercent ?? 3;
  const fnPercent = options.falseNegativePercent ?? (faster ? 0 : 4);
  const normsVersion = `${grid} ${strategyName ?? strategyCode.CodeMeaning}`;
  const statpac = (what: string) => algorithm(`STATPAC ${what}`, "HFA 1.5");
  const clinical = {
    RefractiveParametersUsedOnPatientSequence: [
      {
        SphericalLensPower: options.refraction?.sphere ?? 3.25,
        CylinderLensPower: options.refraction?.cylinder ?? -0.5,
        CylinderAxis: options.refraction?.axis ?? 90,
      },
    ],
    PupilSize: options.pupilMm ?? 3,
    PupilDilated: "NO",
  };

  const testPoints = points.map((p, i) => {
    const s = sensitivities[i];
    const result = s === null || s === undefined ? "NOT SEEN" : s <= 0 ? "SEEN AT MAX" : "SEEN";
    const item: Record<string, unknown> = {
      VisualFieldTestPointXCoordinate: p.x + shift.x,
      VisualFieldTestPointYCoordinate: p.y + shift.y,
      StimulusResults: result,
      ...(result !== "NOT SEEN" ? { SensitivityValue: s } : notSeen !== "omit" ? { SensitivityValue: notSeen } : {}),
    };
    if (td[i] !== null && td[i] !== undefined) {
      const hasPd = pd[i] !== null && pd[i] !== undefined;
      item.VisualFieldTestPointNormalsSequence = [
        {
          AgeCorrectedSensitivityDeviationValue: td[i],
          AgeCorrectedSensitivityDeviationProbabilityValue: tdProbability[i] ?? 100,
          GeneralizedDefectCorrectedSensitivityDeviationFlag: yesNo(hasPd),
          ...(hasPd
            ? {
                GeneralizedDefectCorrectedSensitivityDeviationValue: pd[i],
                GeneralizedDefectCorrectedSensitivityDeviationProbabilityValue: pdProbability[i] ?? 100,
              }
            : {}),
        },
      ];
    }
    return item;
  });

  // The mean over the analysed points (the blind spot left out), a point not seen counting 0 dB.
  const analysedSensitivities = points.flatMap((p, i) => (p.blindSpot ? [] : [Math.max(0, sensitivities[i] ?? 0)]));
  const meanSensitivity = r2(analysedSensitivities.reduce((a, b) => a + b, 0) / Math.max(1, analysedSensitivities.length));
  const intent = {
    ValueType: "CODE",
    ConceptNameCodeSequence: [{ CodeValue: "363703001", CodingSchemeDesignator: "SCT", CodeMeaning: "Has intent" }],
    ConceptCodeSequence: [code(perimetryCodes.diagnostic)],
  };
  const dataSet = {
    DataSetName: "HFA normative database",
    DataSetVersion: normsVersion,
    DataSetSource: "Carl Zeiss Meditec",
  };
  const globalIndices: Array<Record<string, unknown>> = [];
  if (vfi !== null)
    globalIndices.push({
      DataObservationSequence: [
        {
          ValueType: "NUMERIC",
          ConceptNameCodeSequence: [code(perimetryCodes.visualFieldIndex)],
          NumericValue: vfi,
          MeasurementUnitsCodeSequence: [ucumPercent],
        },
      ],
      IndexNormalsFlag: yesNo(vfiProbability !== null),
      ...(vfiProbability !== null ? { IndexProbabilitySequence: [{ IndexProbability: vfiProbability, ...statpac("VFI") }] } : {}),
    });
  if (ght)
    globalIndices.push({
      DataObservationSequence: [
        { ValueType: "CODE", ConceptNameCodeSequence: [code(perimetryCodes.ghtAnalysis)], ConceptCodeSequence: [code(ght)] },
      ],
      IndexNormalsFlag: "NO",
    });

  const fullThreshold = strategyName === "Full Threshold";
  const dataset: Record<string, unknown> = {
    _meta: { TransferSyntaxUID: { Value: [TRANSFER_SYNTAX] } },
    SpecificCharacterSet: "ISO_IR 192",
    ...(options.timezoneOffset ? { TimezoneOffsetFromUTC: options.timezoneOffset } : {}),
    // SOP Common
    SOPClassUID: options.sopClassUid ?? OPV_SOP_CLASS_UID,
    SOPInstanceUID: sopInstanceUid,
    InstanceCreationDate: da,
    InstanceCreationTime: tm,
    InstanceNumber: 1,
    // Patient
    PatientName: patient.name,
    PatientID: options.omitPatientId ? "" : patient.id,
    ...(patient.issuer ? { IssuerOfPatientID: patient.issuer } : {}),
    PatientBirthDate: patient.birthDate,
    PatientSex: patient.sex,
    PatientAge: `${String(Math.max(0, age)).padStart(3, "0")}Y`,
    // General Study
    StudyInstanceUID: options.studyInstanceUid ?? randomUid(),
    StudyDate: da,
    StudyTime: tm,
    ReferringPhysicianName: "",
    StudyID: "1",
    AccessionNumber: "",
    StudyDescription: "Visual Field",
    // General Series and VF Static Perimetry Measurements Series
    Modality: "OPV",
    SeriesInstanceUID: options.seriesInstanceUid ?? randomUid(),
    SeriesNumber: 1,
    SeriesDate: da,
    SeriesTime: tm,
    SeriesDescription: `${grid} ${strategyCode.CodeMeaning}`,
    // The series' Laterality may not be present beside Measurement Laterality (dciodvfy holds to it); some devices write it.
    ...(options.seriesLaterality ? { Laterality: laterality } : {}),
    PerformedProcedureStepStartDate: da,
    PerformedProcedureStepStartTime: tm,
    PerformedProcedureStepID: "1",
    PerformedProcedureStepDescription: `Central ${grid} Threshold Test`,
    PerformedProtocolCodeSequence: [
      {
        ...code(patternCode),
        // Diagnostic (CID 4256): C.8.26.1 puts it in the Protocol Context Sequence, the results module's condition
        // looks for it in a Content Item Modifier Sequence; neither names the concept it is the value of.
        ProtocolContextSequence: [
          {
            ...intent,
            ContentItemModifierSequence: [intent],
          },
        ],
      },
      code(strategyCode),
    ],
    // General and Enhanced General Equipment
    Manufacturer: options.manufacturer ?? "Carl Zeiss Meditec",
    ManufacturerModelName: options.model ?? "HFA3 860",
    DeviceSerialNumber: options.serialNumber ?? "860-12345",
    SoftwareVersions: options.softwareVersions ?? "1.5.2.431",
    ...(options.institution ? { InstitutionName: options.institution } : {}),
    // VF Static Perimetry Test Parameters
    VisualFieldHorizontalExtent: extent("x"),
    VisualFieldVerticalExtent: extent("y"),
    VisualFieldShape: "CIRCLE",
    MaximumStimulusLuminance: asb(10_000),
    BackgroundLuminance: asb(31.5),
    StimulusColorCodeSequence: [code(perimetryCodes.white)],
    BackgroundIlluminationColorCodeSequence: [code(perimetryCodes.white)],
    StimulusArea: GOLDMANN_III_AREA,
    StimulusPresentationTime: 200,
    // VF Static Perimetry Test Reliability
    FixationSequence: [
      {
        FixationMonitoringCodeSequence: faster
          ? [code(perimetryCodes.automatedOptical)]
          : [code(perimetryCodes.blindSpotMonitoring), code(perimetryCodes.automatedOptical)],
        ...(faster ? {} : { FixationCheckedQuantity: fixation.checked, PatientNotProperlyFixatedQuantity: fixation.losses }),
        ExcessiveFixationLossesDataFlag: yesNo(!faster),
        ...(faster ? {} : { ExcessiveFixationLosses: yesNo(fixation.checked > 0 && fixation.losses / fixation.checked > 0.2) }),
      },
    ],
    VisualFieldCatchTrialSequence: [
      sita
        ? {
            // SITA presents no false-positive catch trials (it estimates the false answers from the response times), and
            // SITA Faster no false-negative ones either: the counts are zero beside the estimates.
            CatchTrialsDataFlag: "YES",
            NegativeCatchTrialsQuantity: faster ? 0 : 10,
            FalseNegativesQuantity: faster ? 0 : Math.round((10 * fnPercent) / 100),
            FalseNegativesEstimateFlag: yesNo(!faster),
            ...(faster ? {} : { FalseNegativesEstimate: fnPercent }),
            ExcessiveFalseNegativesDataFlag: yesNo(!faster),
            ...(faster ? {} : { ExcessiveFalseNegatives: yesNo(fnPercent > 33) }),
            PositiveCatchTrialsQuantity: 0,
            FalsePositivesQuantity: 0,
            FalsePositivesEstimateFlag: "YES",
            FalsePositivesEstimate: fpPercent,
            ExcessiveFalsePositivesDataFlag: "YES",
            ExcessiveFalsePositives: yesNo(fpPercent > 15),
          }
        : {
            CatchTrialsDataFlag: "YES",
            NegativeCatchTrialsQuantity: 12,
            FalseNegativesQuantity: Math.round((12 * fnPercent) / 100),
            FalseNegativesEstimateFlag: "NO",
            ExcessiveFalseNegativesDataFlag: "YES",
            ExcessiveFalseNegatives: yesNo(fnPercent > 33),
            PositiveCatchTrialsQuantity: 12,
            FalsePositivesQuantity: Math.round((12 * fpPercent) / 100),
            FalsePositivesEstimateFlag: "NO",
            ExcessiveFalsePositivesDataFlag: "YES",
            ExcessiveFalsePositives: yesNo(fpPercent > 33),
          },
    ],
    // VF Static Perimetry Test Measurements
    MeasurementLaterality: laterality,
    PresentedVisualStimuliDataFlag: "YES",
    NumberOfVisualStimuli: options.stimuli ?? (fullThreshold ? 6 * n : strategyName === "SITA Standard" ? 4 * n : 3 * n),
    VisualFieldTestDuration: options.durationSeconds ?? (fullThreshold ? 14 * 60 : faster ? 160 : strategyName === "SITA Fast" ? 250 : 390),
    FovealSensitivityMeasured: yesNo(options.fovea !== undefined && options.fovea !== null),
    ...(options.fovea !== undefined && options.fovea !== null ? { FovealSensitivity: options.fovea } : {}),
    FovealPointNormativeDataFlag: "NO",
    ScreeningBaselineMeasured: "NO",
    BlindSpotLocalized: yesNo(!faster),
    ...(faster ? {} : { BlindSpotXCoordinate: eye === "OD" ? 15 : -15, BlindSpotYCoordinate: -1.5 }),
    MinimumSensitivityValue: 0,
    TestPointNormalsDataFlag: "YES",
    TestPointNormalsSequence: [dataSet],
    AgeCorrectedSensitivityDeviationAlgorithmSequence: [statpac("total deviation")],
    GeneralizedDefectSensitivityDeviationAlgorithmSequence: [statpac("pattern deviation")],
    VisualFieldTestPointSequence: testPoints,
    // VF Static Perimetry Test Results
    VisualFieldMeanSensitivity: meanSensitivity,
    VisualFieldTestNormalsFlag: "YES",
    ResultsNormalsSequence: [
      {
        ...dataSet,
        GlobalDeviationFromNormal: md,
        GlobalDeviationProbabilityNormalsFlag: yesNo(mdProbability !== null),
        ...(mdProbability !== null
          ? { GlobalDeviationProbabilitySequence: [{ GlobalDeviationProbability: mdProbability, ...statpac("MD") }] }
          : {}),
        LocalizedDeviationFromNormal: psd,
        LocalDeviationProbabilityNormalsFlag: yesNo(psdProbability !== null),
        ...(psdProbability !== null
          ? { LocalizedDeviationProbabilitySequence: [{ LocalizedDeviationProbability: psdProbability, ...statpac("PSD") }] }
          : {}),
      },
    ],
    ShortTermFluctuationCalculated: yesNo(fullThreshold),
    ...(fullThreshold ? { ShortTermFluctuation: options.sf ?? 1.6 } : {}),
    ShortTermFluctuationProbabilityCalculated: "NO",
    CorrectedLocalizedDeviationFromNormalCalculated: yesNo(fullThreshold),
    ...(fullThreshold
      ? { CorrectedLocalizedDeviationFromNormal: options.cpsd ?? r2(Math.max(0, Math.sqrt(Math.max(0, psd ** 2 - 1.6 ** 2)))) }
      : {}),
    CorrectedLocalizedDeviationFromNormalProbabilityCalculated: "NO",
    ...(globalIndices.length ? { VisualFieldGlobalResultsIndexSequence: globalIndices } : {}),
    // Ophthalmic Patient Clinical Information and Test Lens Parameters: the tested eye's
    ...(eye === "OD" ? { OphthalmicPatientClinicalInformationRightEyeSequence: [clinical] } : {}),
    ...(eye === "OS" ? { OphthalmicPatientClinicalInformationLeftEyeSequence: [clinical] } : {}),
  };
  options.mutate?.(dataset);
  return {
    dataset,
    content: { points, sensitivities, td, pd, md, psd, vfi, ght, patternCode, strategyCode, sopInstanceUid },
  };
}

/** A Part 10 file as a Humphrey Field Analyzer exports one: the bytes, and what they say. */
export function humphreyOpvFile(options: HumphreyOpvOptions = {}): { buffer: Buffer; content: HumphreyOpvContent } {
  const { dataset, content } = humphreyDataset(options);
  for (const k of Object.keys(dataset)) if (dataset[k] === undefined) delete dataset[k];
  return { buffer: Buffer.from(dcmjs.data.datasetToBuffer(dataset)), content };
}

/** The Part 10 bytes of a Humphrey-style OPV. */
export const humphreyOpv = (options: HumphreyOpvOptions = {}): Buffer => humphreyOpvFile(options).buffer;
