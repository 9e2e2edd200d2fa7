import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import dcmjs from "dcmjs";
import { perimetryTestName } from "../../core/model/perimetry-test.ts";
import { getPattern, pointsForEye } from "../../core/analytics/patterns.ts";
import { RELIABILITY_LIMITS } from "../../core/analytics/reliability.ts";
import { patternLabel, Sex } from "../../core/model/enums.ts";
import { recordFileName, takenAtParts, type ExportRecord } from "./record.ts";
import { dicomUid } from "./stable-id.ts";
import type { ExportWriter } from "./writer.ts";

// DICOM OPV: Ophthalmic Visual Field Static Perimetry Measurements (PS3.3 A.65, C.8.26), one file per result, written
// with dcmjs (which does not check the IOD: the attributes below are chosen from the standard's modules: Patient,
// General Study, General Series, General Equipment, VF Static Perimetry Test Parameters / Reliability / Measurements,
// SOP Common). Per test point: X/Y (degrees, as the patient sees them), StimulusResults, SensitivityValue, and with a
// normative database the age-corrected deviation (TD) and the generalized-defect-corrected deviation (PD) with their
// probabilities in percent. Globals: mean sensitivity, MD (GlobalDeviationFromNormal), PSD (LocalizedDeviationFromNormal).

export const OPV_SOP_CLASS_UID = "1.2.840.10008.5.1.4.1.1.80.1";
/** Explicit VR little endian. */
const TRANSFER_SYNTAX = "1.2.840.10008.1.2.1";

/** 31.5 asb is 31.5 / pi cd/m2 (1 asb = 1/pi cd/m2). */
export const asbToCdm2 = (asb: number) => asb / Math.PI;

const sexCode: Record<number, string> = { [Sex.Female]: "F", [Sex.Male]: "M", [Sex.Other]: "O" };
const yesNo = (b: boolean) => (b ? "YES" : "NO");
const da = (isoDate: string) => isoDate.replace(/-/g, "");
const tm = (time: string) => time.replace(/:/g, "");
const r4 = (v: number) => Math.round(v * 10_000) / 10_000;
/** A probability level as a percentage (DICOM's probability values); "normal" as 100. */
const percent = (level: number | null | undefined) => (level === null || level === undefined ? undefined : r4(level * 100));

export function opvDataset(r: ExportRecord): Record<string, unknown> {
  const res = r.result;
  const geometry = getPattern(res.pattern);
  const points = pointsForEye(geometry, res.eye);
  const analysis = r.analysis();
  const nv = analysis.normative;
  const { date, time } = takenAtParts(res.takenAt);
  const ct = res.catchTrials;
  const rate = (c: { errors: number; presentations: number }) => (c.presentations > 0 ? c.errors / c.presentations : 0);
  const laterality = res.eye === 0 ? "R" : res.eye === 1 ? "L" : "B";
  const blind = new Set(geometry.blindSpotIndices);
  const xs = points.map((p) => Math.abs(p.x)), ys = points.map((p) => Math.abs(p.y));

  const testPoints = res.thresholds.map((t, i) => {
    const item: Record<string, unknown> = {
      VisualFieldTestPointXCoordinate: points[i]!.x,
      VisualFieldTestPointYCoordinate: points[i]!.y,
      StimulusResults: t > 0 ? "SEEN" : "NOT SEEN",
      SensitivityValue: t,
    };
    if (nv && !blind.has(i) && nv.td[i] !== null && nv.td[i] !== undefined) {
      item.VisualFieldTestPointNormalsSequence = [
        {
          AgeCorrectedSensitivityDeviationValue: r4(nv.td[i]!),
          AgeCorrectedSensitivityDeviationProbabilityValue: percent(nv.tdp[i]),
          GeneralizedDefectCorrectedSensitivityDeviationFlag: "YES",
          GeneralizedDefectCorrectedSensitivityDeviationValue: r4(nv.pd[i]!),
          GeneralizedDefectCorrectedSensitivityDeviationProbabilityValue: percent(nv.pdp[i]),
        },
      ];
    }
    return item;
  });

  const uid = (kind: string) => dicomUid(`${kind}:${r.test.id}`);
  return {
    _meta: { TransferSyntaxUID: { Value: [TRANSFER_SYNTAX] } },
    SpecificCharacterSet: "ISO_IR 192",
    SOPClassUID: OPV_SOP_CLASS_UID,
    SOPInstanceUID: uid("instance"),
    // Patient
    PatientName: r.patient.name.replace(/\s+/g, " ").trim(),
    PatientID: r.patient.uniqueId,
    PatientBirthDate: da(r.patient.birthdate),
    PatientSex: sexCode[r.patient.gender] ?? "O",
    PatientAge: `${String(Math.max(0, Math.min(999, r.age))).padStart(3, "0")}Y`,
    // General Study
    StudyInstanceUID: uid("study"),
    StudyDate: da(date),
    StudyTime: tm(time),
    ReferringPhysicianName: "",
    StudyID: r.test.id.slice(0, 16),
    AccessionNumber: "",
    StudyDescription: `Perimetry ${patternLabel[res.pattern]}`,
    // General Series
    Modality: "OPV",
    SeriesInstanceUID: uid("series"),
    SeriesNumber: 1,
    Laterality: laterality === "B" ? undefined : laterality,
    SeriesDescription: perimetryTestName(r.test),
    // General Equipment
    Manufacturer: "Isopter",
    ManufacturerModelName: res.deviceAlias ?? "VR headset",
    DeviceSerialNumber: r.test.deviceSn ?? "",
    SoftwareVersions: "isopter 0.1.0",
    // Instance
    InstanceNumber: 1,
    ContentDate: da(date),
    ContentTime: tm(time),
    AcquisitionDateTime: `${da(date)}${tm(time)}`,
    // VF Static Perimetry Test Parameters
    VisualFieldHorizontalExtent: Math.max(...xs),
    VisualFieldVerticalExtent: Math.max(...ys),
    VisualFieldShape: "CIRCLE",
    MaximumStimulusLuminance: res.maxIntensity,
    BackgroundLuminance: r4(asbToCdm2(res.background)),
    StimulusPresentationTime: res.stimuliShowtime,
    // VF Static Perimetry Test Reliability
    FixationSequence: [
      {
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
        ExcessiveFalseNegativesDataFlag: "YES",
        ExcessiveFalseNegatives: yesNo(rate(ct.falseNegative) > RELIABILITY_LIMITS.falseNegative),
        PositiveCatchTrialsQuantity: ct.falsePositive.presentations,
        FalsePositivesQuantity: ct.falsePositive.errors,
        ExcessiveFalsePositivesDataFlag: "YES",
        ExcessiveFalsePositives: yesNo(rate(ct.falsePositive) > RELIABILITY_LIMITS.falsePositive),
      },
    ],
    VisualFieldTestDuration: res.examinationTimeInSeconds,
    // VF Static Perimetry Measurements
    MeasurementLaterality: laterality,
    FovealSensitivityMeasured: "NO",
    BlindSpotLocalized: "NO",
    TestPointNormalsDataFlag: yesNo(nv !== null),
    VisualFieldTestPointSequence: testPoints,
    VisualFieldMeanSensitivity: r4(nv?.global.msens ?? analysis.octopus?.ms ?? res.meanSensitivity),
    VisualFieldTestNormalsFlag: yesNo(nv !== null),
    ...(nv
      ? {
          ResultsNormalsSequence: [
            {
              GlobalDeviationFromNormal: r4(nv.global.tmd),
              GlobalDeviationProbabilityNormalsFlag: "NO",
              LocalizedDeviationFromNormal: r4(nv.global.psd),
              LocalDeviationProbabilityNormalsFlag: "NO",
            },
          ],
        }
      : {}),
  };
}

/** The Part 10 file bytes of one result. */
export function opvFile(r: ExportRecord): Buffer {
  const dataset = opvDataset(r);
  for (const k of Object.keys(dataset)) if (dataset[k] === undefined) delete dataset[k];
  return dcmjs.data.datasetToBuffer(dataset);
}

export function dicomWriter(dir: string): ExportWriter {
  return {
    write: (r) => writeFile(join(dir, recordFileName(r, "dcm")), opvFile(r)),
    end: async () => undefined,
  };
}
