import dcmjs from "dcmjs";
import { getPattern, pointsForEye } from "../../core/analytics/patterns.ts";
import { RELIABILITY_LIMITS } from "../../core/analytics/reliability.ts";
import { isScreeningResult, locationSeen } from "../../core/analytics/seen.ts";
import { significance } from "../../core/analytics/significance.ts";
import { getNormativeDatabase } from "../../core/analytics/normative/registry.ts";
import type { ProbabilityLevel } from "../../core/analytics/normative/tables.ts";
import { clinicTime } from "../../core/model/clinic-time.ts";
import { patternLabel, Sex, StimulusSize } from "../../core/model/enums.ts";
import { perimetryTestName } from "../../core/model/perimetry-test.ts";
import type { ExportContext } from "./context.ts";
import * as codes from "../../core/dicom/codes.ts";
import type { Order } from "../../core/model/order.ts";
import type { ExportRecord } from "./record.ts";
import { dicomUid } from "../../adapters/interchange/stable-id.ts";

// DICOM OPV: Ophthalmic Visual Field Static Perimetry Measurements (PS3.3 A.65 and C.8.26), one instance per result,
// written with dcmjs. `dciodvfy` (dicom3tools) checks the IOD in tests/cli/dicom-validate.test.ts. What goes where:
// - Study: one per visit (the patient's results of one day in the clinic's time zone: both eyes share it), dated in
//   that zone with its offset from UTC (TimezoneOffsetFromUTC). Series: one per result, with the Encapsulated PDF of
//   its printed page in a second series of the same study (dicom-pdf.ts).
// - The pattern and the strategy as the Performed Protocol Code Sequence (core/dicom/codes.ts).
// - Per test point: X/Y in degrees as the patient sees them, seen or not seen (core/analytics/seen.ts; a location not
//   seen carries no sensitivity), and with a normative database the total deviation (age corrected) and the pattern
//   deviation (generalized-defect corrected) with their probabilities in percent. The 24-2 and 30-2 blind-spot
//   locations are not tested points (the seed: "24-2 grid skips two blind-spot points") and are left out.
// - Results: mean sensitivity; with normals MD (global deviation) and PSD (localized deviation) with probabilities,
//   and VFI and the Glaucoma Hemifield Test as global indices; without normals of ours but with the device's normal
//   values, the Octopus mean defect and sLV; Esterman and screenings the share of points seen.

export const OPV_SOP_CLASS_UID = "1.2.840.10008.5.1.4.1.1.80.1";
/** Explicit VR little endian. */
export const TRANSFER_SYNTAX = "1.2.840.10008.1.2.1";
export const SOFTWARE_VERSION = "isopter 0.1.0";

/** 31.5 asb is 31.5 / pi cd/m2 (1 asb = 1/pi cd/m2). */
export const asbToCdm2 = (asb: number) => asb / Math.PI;

/** Goldmann stimulus diameters in degrees (size III: 4 mm2 at 300 mm, 0.43 degrees; each size doubles the diameter). */
const goldmannDiameter: Record<number, number> = {
  [StimulusSize.I]: 0.108,
  [StimulusSize.II]: 0.215,
  [StimulusSize.III]: 0.43,
  [StimulusSize.IV]: 0.86,
  [StimulusSize.V]: 1.72,
  [StimulusSize.III_ADAPTIVE]: 0.43,
};

const sexCode: Record<number, string> = { [Sex.Female]: "F", [Sex.Male]: "M", [Sex.Other]: "O" };
const yesNo = (b: boolean) => (b ? "YES" : "NO");
const da = (isoDate: string) => isoDate.replace(/-/g, "");
const tm = (time: string) => time.replace(/:/g, "");
const r4 = (v: number) => Math.round(v * 10_000) / 10_000;
/** "+01:00" as DICOM's TimezoneOffsetFromUTC "+0100". */
const dicomOffset = (offset: string) => offset.replace(":", "");

/**
 * A probability level as DICOM's probability in percent: the band's upper bound where outside normal limits ("p < 5 %"
 * is 5), else 100: the tables give bands, not exact probabilities.
 */
export const probabilityPercent = (level: ProbabilityLevel | null | undefined): number => {
  const p = significance(level);
  return p === null ? 100 : r4(p * 100);
};

/**
 * PN from our one name field: the last word as family name, the rest as given names ("Şükrü Yılmaz" is
 * "Yılmaz^Şükrü"); a name of one word (as Chinese names are usually written) is all family name.
 */
export function personName(name: string): string {
  const words = name
    .replace(/[\^=\\]/g, " ")
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  if (words.length <= 1) return words[0] ?? "";
  return `${words.at(-1)}^${words.slice(0, -1).join(" ")}`;
}

/** One result's visit: the patient and the clinic's calendar day. */
export const studyUid = (r: ExportRecord, context: ExportContext) =>
  dicomUid(`study:${r.patient.id}:${clinicTime(r.result.takenAt, context.timeZone).date}`);

/** The worklist step the result was taken for (issue 29), when it was queued from one. */
export const orderOf = (r: ExportRecord): Order | undefined =>
  r.stored.kind === "measurement" ? r.stored.measurement.order : r.stored.examination.order;

/**
 * The order's identifiers as the Request Attributes Sequence (General Series, PS3.3 C.7.3.1 / 10.6): the requested
 * procedure and the scheduled step it fulfils, each only when the worklist gave it (Type 1C: present when scheduled).
 */
const requestAttributes = (order: Order | undefined): Record<string, unknown> => {
  if (!order) return {};
  const item = {
    ...(order.requestedProcedureId ? { RequestedProcedureID: order.requestedProcedureId } : {}),
    ...(order.accessionNumber ? { AccessionNumber: order.accessionNumber } : {}),
    ...(order.studyInstanceUid ? { StudyInstanceUID: order.studyInstanceUid } : {}),
    ...(order.scheduledProcedureStepId ? { ScheduledProcedureStepID: order.scheduledProcedureStepId } : {}),
  };
  return Object.keys(item).length > 0 ? { RequestAttributesSequence: [item] } : {};
};

/** Something the standard wants that the stored result cannot say; written as a warning beside the export. */
export type DicomWarning = (message: string) => void;

/** Patient, General Study, Enhanced General Equipment and SOP Common: what the OPV and the PDF instance share. */
export function commonAttributes(r: ExportRecord, context: ExportContext, warn: DicomWarning): Record<string, unknown> {
  const { date, time, offset } = clinicTime(r.result.takenAt, context.timeZone);
  const serial = r.test.deviceSn ?? r.result.deviceAlias;
  if (!serial) warn("no device serial number or alias is stored: DeviceSerialNumber is UNKNOWN");
  // A result taken for a worklist step joins the study the RIS ordered, under its accession number.
  const order = orderOf(r);
  return {
    SpecificCharacterSet: "ISO_IR 192",
    TimezoneOffsetFromUTC: dicomOffset(offset),
    // Patient
    PatientName: personName(r.patient.name),
    PatientID: r.patient.uniqueId,
    IssuerOfPatientID: lo(context.organisation.name),
    PatientBirthDate: da(r.patient.birthdate),
    PatientSex: sexCode[r.patient.gender] ?? "O",
    PatientAge: `${String(Math.max(0, Math.min(999, r.age))).padStart(3, "0")}Y`,
    // General Study: the visit
    StudyInstanceUID: order?.studyInstanceUid ?? studyUid(r, context),
    StudyDate: da(date),
    StudyTime: "", // a visit's results are written one by one: the first one's time is not known here (Type 2)
    ReferringPhysicianName: "",
    StudyID: da(date),
    AccessionNumber: order?.accessionNumber ?? "",
    StudyDescription: "Perimetry",
    // General and Enhanced General Equipment
    Manufacturer: "Isopter",
    InstitutionName: lo(context.organisation.name),
    ManufacturerModelName: "VR headset perimeter",
    DeviceSerialNumber: serial ?? "UNKNOWN",
    SoftwareVersions: SOFTWARE_VERSION,
    // Series timing
    SeriesDate: da(date),
    SeriesTime: tm(time),
  };
}

const code = (c: codes.Code) => ({ ...c });

/** The AlgorithmIdentificationMacro: which computation, which normative version. */
const algorithm = (family: codes.Code, name: string, version: string) => ({
  AlgorithmFamilyCodeSequence: [code(family)],
  AlgorithmName: name,
  AlgorithmVersion: version,
});

/** ExternallySourcedDataSetIdentificationMacro for a normative database. */
const dataSet = (name: string, version: string, source: string) => ({
  DataSetName: lo(name),
  DataSetVersion: lo(version),
  DataSetSource: lo(source),
});

/** A LO value: at most 64 bytes in UTF-8 (ISO_IR 192), cut at a character boundary. */
export function lo(s: string, maxBytes = 64): string {
  let out = "";
  let bytes = 0;
  for (const ch of s) {
    const n = Buffer.byteLength(ch);
    if (bytes + n > maxBytes) break;
    out += ch;
    bytes += n;
  }
  return out;
}

/** A numeric global index (OphthalmicVisualFieldGlobalIndexMacro) with or without a probability. */
const numericIndex = (
  concept: codes.Code,
  value: number,
  unit: codes.Code,
  probability?: { percent: number; algorithm: Record<string, unknown> },
) => ({
  DataObservationSequence: [
    { ValueType: "NUMERIC", ConceptNameCodeSequence: [code(concept)], NumericValue: r4(value), MeasurementUnitsCodeSequence: [code(unit)] },
  ],
  IndexNormalsFlag: yesNo(probability !== undefined),
  ...(probability ? { IndexProbabilitySequence: [{ IndexProbability: probability.percent, ...probability.algorithm }] } : {}),
});

export function opvDataset(r: ExportRecord, context: ExportContext, warn: DicomWarning = () => undefined): Record<string, unknown> {
  const res = r.result;
  const geometry = getPattern(res.pattern);
  const points = pointsForEye(geometry, res.eye);
  const analysis = r.analysis();
  const nv = analysis.normative;
  const tables = nv ? getNormativeDatabase(res.pattern, nv.normativeVersion) : null;
  const { date, time } = clinicTime(res.takenAt, context.timeZone);
  const ct = res.catchTrials;
  const rate = (c: { errors: number; presentations: number }) => (c.presentations > 0 ? c.errors / c.presentations : 0);
  const laterality = res.eye === 0 ? "R" : res.eye === 1 ? "L" : "B";
  const blind = new Set(geometry.blindSpotIndices);
  const screening = isScreeningResult(res);
  const tested = points.flatMap((p, i) => (blind.has(i) ? [] : [{ p, i }]));
  // PS3.3 C.8.26.2.1: the extent is the maximum angular subtend of the tested field (its width and height), not its
  // reach from fixation: a 24-2 spans 27 degrees nasally to 21 temporally (48) and -21..21 up and down (42).
  const extent = (axis: "x" | "y") => {
    const values = tested.map(({ p }) => p[axis]);
    return Math.max(...values) - Math.min(...values);
  };
  const uid = (kind: string) => dicomUid(`${kind}:${r.test.id}`);

  const testPoints = tested.map(({ p, i }) => {
    const t = res.thresholds[i]!;
    const seen = locationSeen(t, screening) === true;
    const item: Record<string, unknown> = {
      VisualFieldTestPointXCoordinate: p.x,
      VisualFieldTestPointYCoordinate: p.y,
      StimulusResults: seen ? "SEEN" : "NOT SEEN",
      // A location not seen has no sensitivity: "not seen at 0 dB" and "seen at 0 dB" stay apart.
      ...(seen ? { SensitivityValue: t } : {}),
    };
    if (nv) {
      const td = nv.td[i],
        pd = nv.pd[i];
      item.VisualFieldTestPointNormalsSequence = [
        {
          AgeCorrectedSensitivityDeviationValue: r4(td ?? 0),
          AgeCorrectedSensitivityDeviationProbabilityValue: probabilityPercent(nv.tdp[i]),
          GeneralizedDefectCorrectedSensitivityDeviationFlag: yesNo(pd !== null && pd !== undefined),
          ...(pd !== null && pd !== undefined
            ? {
                GeneralizedDefectCorrectedSensitivityDeviationValue: r4(pd),
                GeneralizedDefectCorrectedSensitivityDeviationProbabilityValue: probabilityPercent(nv.pdp[i]),
              }
            : {}),
        },
      ];
    }
    return item;
  });

  const normsName = nv ? `${nv.database} (${patternLabel[res.pattern]})` : "";
  const normsVersion = nv?.normativeVersion ?? "";
  const normsSource = nv?.source ?? tables?.source ?? "";
  const octopus = !nv && analysis.octopus && res.normValues ? analysis.octopus : null;
  const globalIndices: Array<Record<string, unknown>> = [];
  if (nv) {
    const levelAlgorithm = algorithm(codes.globalProbabilityAlgorithm, "Isopter global index levels", normsVersion);
    globalIndices.push(
      numericIndex(codes.visualFieldIndex, nv.global.vfi, codes.percentUnit, {
        percent: probabilityPercent(nv.globalLevels.vfi),
        algorithm: levelAlgorithm,
      }),
    );
    if (nv.ght)
      globalIndices.push({
        DataObservationSequence: [
          {
            ValueType: "CODE",
            ConceptNameCodeSequence: [code(codes.ghtAnalysis)],
            ConceptCodeSequence: [code(codes.ghtOutcome[nv.ght.outcome]!)],
          },
        ],
        IndexNormalsFlag: "NO",
      });
  }
  if (analysis.estermanScore !== null) globalIndices.push(numericIndex(codes.estermanScore, analysis.estermanScore, codes.percentUnit));
  else if (screening) {
    const seen = tested.filter(({ i }) => locationSeen(res.thresholds[i]!, true)).length;
    globalIndices.push(numericIndex(codes.seenShare, Math.round((100 * seen) / tested.length), codes.percentUnit));
  }
  if (!nv && !octopus && !screening && analysis.estermanScore === null)
    warn(`no normative database for ${patternLabel[res.pattern]} and no normal values from the device: no MD, PSD or probabilities`);

  const clinicalInformation = { RefractiveParametersUsedOnPatientSequence: [], PupilSize: "", PupilDilated: "" };
  const meanSensitivity = nv?.global.msens ?? analysis.octopus?.ms ?? res.meanSensitivity;

  return {
    _meta: { TransferSyntaxUID: { Value: [TRANSFER_SYNTAX] } },
    ...commonAttributes(r, context, warn),
    SOPClassUID: OPV_SOP_CLASS_UID,
    SOPInstanceUID: uid("instance"),
    InstanceNumber: 1,
    // General Series + VF Static Perimetry Measurements Series (laterality is the measurement's, not the series')
    Modality: "OPV",
    SeriesInstanceUID: uid("series"),
    SeriesNumber: 1 + (res.eye === 1 ? 1 : 0),
    SeriesDescription: perimetryTestName(r.test),
    ...requestAttributes(orderOf(r)),
    PerformedProcedureStepStartDate: da(date),
    PerformedProcedureStepStartTime: tm(time),
    PerformedProcedureStepID: r.test.id.slice(0, 16),
    PerformedProcedureStepDescription: lo(
      `${patternLabel[res.pattern]} ${codes.strategyCode[res.strategy].CodeMeaning.replace(/^Visual Field /, "")}`,
    ),
    PerformedProtocolCodeSequence: [code(codes.patternCode[res.pattern]), code(codes.strategyCode[res.strategy])],
    // VF Static Perimetry Test Parameters
    VisualFieldHorizontalExtent: extent("x"),
    VisualFieldVerticalExtent: extent("y"),
    VisualFieldShape: "CIRCLE",
    ...(screening && codes.screeningModeCode[res.strategy]
      ? { ScreeningTestModeCodeSequence: [code(codes.screeningModeCode[res.strategy]!)] }
      : {}),
    MaximumStimulusLuminance: r4(res.maxIntensity),
    BackgroundLuminance: r4(asbToCdm2(res.background)),
    StimulusColorCodeSequence: [code(codes.white)],
    BackgroundIlluminationColorCodeSequence: [code(codes.white)],
    StimulusArea: r4((Math.PI * (goldmannDiameter[res.stimulusSize] ?? 0.43) ** 2) / 4),
    StimulusPresentationTime: res.stimuliShowtime,
    // VF Static Perimetry Test Reliability
    FixationSequence: [
      {
        FixationMonitoringCodeSequence: [...(res.gazeTracking ? [code(codes.fixationByGaze)] : []), code(codes.fixationByBlindSpot)],
        FixationCheckedQuantity: ct.blindSpot.presentations,
        PatientNotProperlyFixatedQuantity: ct.blindSpot.errors,
        ExcessiveFixationLossesDataFlag: "YES",
        ExcessiveFixationLosses: yesNo(rate(ct.blindSpot) > RELIABILITY_LIMITS.fixationLoss),
      },
    ],
    VisualFieldCatchTrialSequence: [
      {
        CatchTrialsDataFlag: "YES",
        NegativeCatchTrialsQuantity: ct.falseNegative.presentations,
        FalseNegativesQuantity: ct.falseNegative.errors,
        FalseNegativesEstimateFlag: "NO", // counted, not estimated from responses
        ExcessiveFalseNegativesDataFlag: "YES",
        ExcessiveFalseNegatives: yesNo(rate(ct.falseNegative) > RELIABILITY_LIMITS.falseNegative),
        PositiveCatchTrialsQuantity: ct.falsePositive.presentations,
        FalsePositivesQuantity: ct.falsePositive.errors,
        FalsePositivesEstimateFlag: "NO",
        ExcessiveFalsePositivesDataFlag: "YES",
        ExcessiveFalsePositives: yesNo(rate(ct.falsePositive) > RELIABILITY_LIMITS.falsePositive),
      },
    ],
    // VF Static Perimetry Test Measurements
    MeasurementLaterality: laterality,
    PresentedVisualStimuliDataFlag: "YES",
    NumberOfVisualStimuli: Math.max(0, Math.min(65535, Math.round(res.presentations))),
    VisualFieldTestDuration: res.examinationTimeInSeconds,
    FovealSensitivityMeasured: "NO",
    FovealPointNormativeDataFlag: "NO",
    ScreeningBaselineMeasured: "NO",
    BlindSpotLocalized: "NO",
    MinimumSensitivityValue: 0, // the brightest stimulus is 0 dB; below it a location is "not seen"
    TestPointNormalsDataFlag: yesNo(nv !== null),
    ...(nv
      ? {
          TestPointNormalsSequence: [dataSet(normsName, normsVersion, normsSource)],
          AgeCorrectedSensitivityDeviationAlgorithmSequence: [
            algorithm(codes.totalDeviationAlgorithm, "Isopter total deviation", normsVersion),
          ],
          GeneralizedDefectSensitivityDeviationAlgorithmSequence: [
            algorithm(codes.patternDeviationAlgorithm, "Isopter pattern deviation", normsVersion),
          ],
        }
      : {}),
    VisualFieldTestPointSequence: testPoints,
    // VF Static Perimetry Test Results
    VisualFieldMeanSensitivity: r4(meanSensitivity),
    VisualFieldTestNormalsFlag: yesNo(nv !== null || octopus !== null),
    ...(nv
      ? {
          ResultsNormalsSequence: [
            {
              ...dataSet(normsName, normsVersion, normsSource),
              GlobalDeviationFromNormal: r4(nv.global.tmd),
              GlobalDeviationProbabilityNormalsFlag: "YES",
              GlobalDeviationProbabilitySequence: [
                {
                  GlobalDeviationProbability: probabilityPercent(nv.globalLevels.tmd),
                  ...algorithm(codes.globalProbabilityAlgorithm, "Isopter global index levels", normsVersion),
                },
              ],
              LocalizedDeviationFromNormal: r4(nv.global.psd),
              LocalDeviationProbabilityNormalsFlag: "YES",
              LocalizedDeviationProbabilitySequence: [
                {
                  LocalizedDeviationProbability: probabilityPercent(nv.globalLevels.psd),
                  ...algorithm(codes.globalProbabilityAlgorithm, "Isopter global index levels", normsVersion),
                },
              ],
            },
          ],
        }
      : octopus
        ? {
            ResultsNormalsSequence: [
              {
                ...dataSet(
                  "Device normal values",
                  res.deviceAlias ?? "unknown",
                  "the headset's own normal values (Octopus mean defect and sLV)",
                ),
                GlobalDeviationFromNormal: r4(-octopus.md), // Octopus MD is a loss (positive = worse); DICOM's is a deviation
                GlobalDeviationProbabilityNormalsFlag: "NO",
                LocalizedDeviationFromNormal: r4(octopus.slv),
                LocalDeviationProbabilityNormalsFlag: "NO",
              },
            ],
          }
        : {}),
    ShortTermFluctuationCalculated: "NO",
    ShortTermFluctuationProbabilityCalculated: "NO",
    CorrectedLocalizedDeviationFromNormalCalculated: "NO",
    CorrectedLocalizedDeviationFromNormalProbabilityCalculated: "NO",
    ...(globalIndices.length ? { VisualFieldGlobalResultsIndexSequence: globalIndices } : {}),
    // Ophthalmic Patient Clinical Information: what the headset does not record stays empty (Type 2).
    ...(laterality !== "R" ? { OphthalmicPatientClinicalInformationLeftEyeSequence: [clinicalInformation] } : {}),
    ...(laterality !== "L" ? { OphthalmicPatientClinicalInformationRightEyeSequence: [clinicalInformation] } : {}),
  };
}

/** Drops undefined values (dcmjs would write them as empty elements) and writes the Part 10 file. */
export function part10(dataset: Record<string, unknown>): Buffer {
  for (const k of Object.keys(dataset)) if (dataset[k] === undefined) delete dataset[k];
  return dcmjs.data.datasetToBuffer(dataset);
}

/** The Part 10 file bytes of one result. */
export const opvFile = (r: ExportRecord, context: ExportContext, warn?: DicomWarning): Buffer => part10(opvDataset(r, context, warn));
