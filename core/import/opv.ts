import { getPattern, patternsWithGeometry, pointsForEye } from "../analytics/patterns.ts";
import { isScreening } from "../analytics/seen.ts";
import { patternCode, strategyCode } from "../dicom/codes.ts";
import { Eye, Pattern, patternLabel, Sex, Showtime, StimulusSize, Strategy } from "../model/enums.ts";
import type { DeviceIndices } from "../model/result-source.ts";
import { coded, type Dataset, instant, isoDate, item, items, num, personName, text } from "./dicom-values.ts";
import { type FileReading, importedResult, unreadable } from "./imported-field.ts";

// A DICOM OPV instance (Ophthalmic Visual Field Static Perimetry Measurements, PS3.3 A.65 and C.8.26) as an Isopter
// result, from whichever perimeter wrote it. Only the standard's attributes are read, never a vendor's private ones:
// - the pattern and the strategy from the Performed Protocol Code Sequence (CID 4250, 4251, or our 99ISOPTER codes);
//   a file without a pattern code is placed by its test points when they are exactly one of Isopter's patterns;
// - each test point's X/Y (degrees, as the patient sees them) placed on the pattern's location for the eye; its
//   sensitivity where SEEN, "<0 dB" (-1) where NOT SEEN;
// - the device's own analysis (TD, PD and their probabilities per point; MD, PSD, VFI, GHT) kept as the device's;
// - catch trials, fixation, duration, stimuli and luminances.
// Choices of ours where the standard or the file leaves a gap:
// - a blind-spot location of the 24-2 or 30-2 the file does not list (Isopter's own export leaves them out, as the
//   seeds' 24-2 skips them) is stored as not seen, as the physiological blind spot is; the analysis never reads it;
// - another perimeter's supra-threshold screening is refused: its levels mean what that device's normals mean;
// - the stimulus showtime is the nearest Isopter showtime (HFA's 200 ms is exact), the size the nearest Goldmann size.

export const OPV_SOP_CLASS_UID = "1.2.840.10008.5.1.4.1.1.80.1";

/** Names of SOP classes a clinic's folder often holds beside OPV, for a clear refusal. */
const otherSopClasses: Record<string, string> = {
  "1.2.840.10008.5.1.4.1.1.104.1": "an Encapsulated PDF (a printed report, not measurements)",
  "1.2.840.10008.5.1.4.1.1.7": "a Secondary Capture image (a picture of a report, not measurements)",
  "1.2.840.10008.5.1.4.1.1.77.1.5.1": "an ophthalmic photograph",
  "1.2.840.10008.5.1.4.1.1.77.1.5.4": "an ophthalmic tomography image",
  "1.2.840.10008.5.1.4.1.1.81.1": "an Ophthalmic Thickness Map",
  "1.2.840.10008.5.1.4.1.1.88.59": "a Key Object Selection document",
};

const codeKey = (scheme: string, value: string) => `${scheme.toUpperCase()}:${value}`;
const patternByCode = new Map(
  Object.entries(patternCode).map(([p, c]) => [codeKey(c.CodingSchemeDesignator, c.CodeValue), Number(p) as Pattern]),
);
const strategyByCode = new Map(
  Object.entries(strategyCode).map(([s, c]) => [codeKey(c.CodingSchemeDesignator, c.CodeValue), Number(s) as Strategy]),
);
/** CID 4250 (PS3.16): DCM 111800-111814 are test patterns, whether Isopter has the pattern or not. */
const isCid4250 = (scheme: string, value: string) => scheme.toUpperCase() === "DCM" && /^1118(0\d|1[0-4])$/.test(value);

const goldmannAreas: ReadonlyArray<[StimulusSize, number]> = [
  [StimulusSize.I, 0.25],
  [StimulusSize.II, 1],
  [StimulusSize.III, 4],
  [StimulusSize.IV, 16],
  [StimulusSize.V, 64],
].map(([s, mm2]) => [s as StimulusSize, (Math.PI * (0.43 * Math.sqrt(mm2! / 4)) ** 2) / 4]);

/** The Goldmann size whose area (square degrees, at 300 mm) is nearest; III when the file gives none. */
const stimulusSizeOf = (area: number | null): StimulusSize =>
  area === null || area <= 0
    ? StimulusSize.III
    : goldmannAreas.reduce((best, cur) => (Math.abs(Math.log(cur[1] / area)) < Math.abs(Math.log(best[1] / area)) ? cur : best))[0];

const showtimes = Object.values(Showtime);
const showtimeOf = (ms: number | null) =>
  ms === null ? Showtime.Ms200 : showtimes.reduce((best, cur) => (Math.abs(cur - ms) < Math.abs(best - ms) ? cur : best));

const sexOf: Record<string, Sex> = { F: Sex.Female, M: Sex.Male, O: Sex.Other };

interface Point {
  readonly x: number;
  readonly y: number;
  readonly ds: Dataset;
}

/** The pattern's location index of each file point for the eye, or the first point that is none of its locations. */
function placePoints(pattern: Pattern, eye: Eye, points: readonly Point[]): { index: number[] } | { misfit: Point } {
  const locations = pointsForEye(getPattern(pattern), eye);
  const index: number[] = [];
  for (const p of points) {
    const i = locations.findIndex((l) => Math.abs(l.x - p.x) < 0.5 && Math.abs(l.y - p.y) < 0.5);
    if (i < 0) return { misfit: p };
    index.push(i);
  }
  return { index };
}

/** The one pattern whose locations the points are (all of its tested ones, nothing else); null when none or several. */
function patternOfPoints(eye: Eye, points: readonly Point[]): Pattern | null {
  const fits = patternsWithGeometry.filter((pattern) => {
    const g = getPattern(pattern);
    if (g.binocular !== (eye === Eye.Binocular)) return false;
    const placed = placePoints(pattern, eye, points);
    if (!("index" in placed)) return false;
    const seen = new Set(placed.index);
    return seen.size === points.length && g.points.every((_, i) => seen.has(i) || g.blindSpotIndices.includes(i));
  });
  return fits.length === 1 ? fits[0]! : null;
}

const lateralityEye: Record<string, Eye> = { R: Eye.Right, L: Eye.Left, B: Eye.Binocular };

/** The device's own analysis as the file carries it, per location in the pattern's order. */
function deviceIndices(ds: Dataset, points: readonly Point[], index: readonly number[], n: number): DeviceIndices | null {
  const perLocation = (read: (normals: Dataset) => number | null) => {
    const values: Array<number | null> = new Array(n).fill(null);
    let any = false;
    points.forEach((p, k) => {
      const normals = item(p.ds, "VisualFieldTestPointNormalsSequence");
      const v = normals ? read(normals) : null;
      if (v !== null) any = true;
      values[index[k]!] = v;
    });
    return any ? values : null;
  };
  const normals = item(ds, "ResultsNormalsSequence");
  const globals = items(ds, "VisualFieldGlobalResultsIndexSequence").map((g) => {
    const obs = item(g, "DataObservationSequence");
    const concept = obs ? coded(item(obs, "ConceptNameCodeSequence") ?? {}) : null;
    return { concept, obs };
  });
  const globalOf = (value: string) =>
    globals.find((g) => g.concept?.scheme.toUpperCase() === "DCM" && g.concept.value === value)?.obs ?? null;
  const vfi = globalOf("111852");
  const ght = globalOf("111855");
  const tdSeq = item(ds, "TestPointNormalsSequence");
  const normsName = [
    text(normals ?? {}, "DataSetName") ?? text(tdSeq ?? {}, "DataSetName"),
    text(normals ?? {}, "DataSetVersion") ?? text(tdSeq ?? {}, "DataSetVersion"),
  ]
    .filter(Boolean)
    .join(" ");
  const indices: DeviceIndices = {
    normsName: normsName === "" ? null : normsName,
    md: normals ? num(normals, "GlobalDeviationFromNormal") : null,
    mdProbability: normals ? num(item(normals, "GlobalDeviationProbabilitySequence") ?? {}, "GlobalDeviationProbability") : null,
    psd: normals ? num(normals, "LocalizedDeviationFromNormal") : null,
    psdProbability: normals ? num(item(normals, "LocalizedDeviationProbabilitySequence") ?? {}, "LocalizedDeviationProbability") : null,
    vfi: vfi ? num(vfi, "NumericValue") : null,
    ght: ght ? (coded(item(ght, "ConceptCodeSequence") ?? {})?.meaning ?? null) : null,
    td: perLocation((s) => num(s, "AgeCorrectedSensitivityDeviationValue")),
    tdProbability: perLocation((s) => num(s, "AgeCorrectedSensitivityDeviationProbabilityValue")),
    pd: perLocation((s) => num(s, "GeneralizedDefectCorrectedSensitivityDeviationValue")),
    pdProbability: perLocation((s) => num(s, "GeneralizedDefectCorrectedSensitivityDeviationProbabilityValue")),
  };
  return Object.entries(indices).some(([k, v]) => k !== "normsName" && v !== null) ? indices : null;
}

/**
 * A catch-trial tally: the device's estimate in percent where its flag says it estimated (SITA presents no false-positive
 * catch trials and reports an estimate; counted here as errors of 100), else the counts.
 */
function tally(ds: Dataset | null, presented: string, errors: string, estimate?: string) {
  if (ds === null) return { errors: 0, presentations: 0 };
  const pct = estimate ? num(ds, estimate) : null;
  if (pct !== null && text(ds, `${estimate}Flag`)?.toUpperCase() === "YES") return { errors: pct, presentations: 100 };
  const n = num(ds, presented);
  const e = num(ds, errors);
  if (n !== null && e !== null) return { errors: e, presentations: n };
  return pct !== null ? { errors: pct, presentations: 100 } : { errors: 0, presentations: 0 };
}

export function readOpv(ds: Dataset, fileName: string, importedAt: string, timeZone = "UTC"): FileReading {
  const sopClass = text(ds, "SOPClassUID") ?? text(ds, "MediaStorageSOPClassUID");
  if (sopClass !== OPV_SOP_CLASS_UID)
    return unreadable(
      sopClass === null
        ? "not a DICOM OPV file: it names no SOP class"
        : `not a DICOM OPV file: it is ${otherSopClasses[sopClass] ?? `SOP class ${sopClass}`}`,
    );
  const uid = text(ds, "SOPInstanceUID");
  if (uid === null) return unreadable("the OPV has no SOP Instance UID");
  const refuse = (reason: string): FileReading => ({ ok: true, fields: [], refused: [{ item: `SOP Instance ${uid}`, reason }] });

  // Measurement Laterality (Type 1); some devices write the series' Laterality instead.
  const laterality = text(ds, "MeasurementLaterality") ?? text(ds, "Laterality");
  const eye = laterality === null ? undefined : lateralityEye[laterality.toUpperCase()];
  if (eye === undefined) return refuse(`Measurement Laterality ${laterality ?? "(none)"}: not R, L or B`);

  const points: Point[] = [];
  for (const p of items(ds, "VisualFieldTestPointSequence")) {
    const x = num(p, "VisualFieldTestPointXCoordinate");
    const y = num(p, "VisualFieldTestPointYCoordinate");
    if (x === null || y === null) return refuse(`test point ${points.length + 1} has no X/Y coordinate`);
    points.push({ x, y, ds: p });
  }
  if (points.length === 0) return refuse("the OPV has no test points (Visual Field Test Point Sequence)");

  const protocol = items(ds, "PerformedProtocolCodeSequence").flatMap((c) => coded(c) ?? []);
  const patternEntry = protocol.find((c) => patternByCode.has(codeKey(c.scheme, c.value)));
  const foreignPattern = protocol.find((c) => !patternByCode.has(codeKey(c.scheme, c.value)) && isCid4250(c.scheme, c.value));
  let pattern: Pattern | null = patternEntry ? patternByCode.get(codeKey(patternEntry.scheme, patternEntry.value))! : null;
  if (pattern === null && foreignPattern)
    return refuse(
      `unknown pattern: ${foreignPattern.meaning} (${foreignPattern.scheme} ${foreignPattern.value}) is not a pattern Isopter has`,
    );
  pattern ??= patternOfPoints(eye, points);
  if (pattern === null || pattern === Pattern.Undefined)
    return refuse(
      `unknown pattern: the file names none Isopter has${protocol.length ? ` (${protocol.map((c) => c.meaning).join(", ")})` : ""}, and its ${points.length} test points are not one of Isopter's patterns`,
    );
  const geometry = getPattern(pattern);
  const placed = placePoints(pattern, eye, points);
  if ("misfit" in placed)
    return refuse(`test point (${placed.misfit.x}, ${placed.misfit.y}) is not a location of the ${patternLabel[pattern]} for this eye`);

  const strategyEntry = protocol.find((c) => c !== patternEntry && !isCid4250(c.scheme, c.value));
  const strategy = strategyEntry
    ? (strategyByCode.get(codeKey(strategyEntry.scheme, strategyEntry.value)) ?? Strategy.Undefined)
    : Strategy.Undefined;
  const screeningMode = item(ds, "ScreeningTestModeCodeSequence");
  const screening = isScreening(strategy);
  if (screeningMode && !screening)
    return refuse(
      `a supra-threshold screening by another perimeter (${coded(screeningMode)?.meaning ?? "screening mode"}): only thresholds are imported from other devices`,
    );

  const notSeen = screening ? 0 : -1;
  const thresholds: number[] = new Array(geometry.points.length).fill(Number.NaN);
  for (const [k, p] of points.entries()) {
    const i = placed.index[k]!;
    if (!Number.isNaN(thresholds[i]!)) return refuse(`test point (${p.x}, ${p.y}) is listed twice`);
    const answer = text(p.ds, "StimulusResults")?.toUpperCase() ?? null;
    const value = num(p.ds, "SensitivityValue");
    if (answer === "NOT SEEN") thresholds[i] = notSeen;
    else if (answer === "SEEN" && value !== null) thresholds[i] = value;
    else if (answer === "SEEN" && screening) thresholds[i] = 1;
    // Seen at the brightest stimulus: 0 dB, a threshold (PS3.3 C.8.26.6 Stimulus Results).
    else if (answer === "SEEN AT MAX") thresholds[i] = value ?? 0;
    else
      return refuse(
        `test point (${p.x}, ${p.y}): ${answer === "SEEN" ? "seen without a sensitivity value" : `Stimulus Results ${answer ?? "missing"}`}`,
      );
  }
  for (const [i, t] of thresholds.entries()) {
    if (!Number.isNaN(t)) continue;
    if (!geometry.blindSpotIndices.includes(i)) {
      const at = pointsForEye(geometry, eye)[i]!;
      return refuse(`the ${patternLabel[pattern]} location (${at.x}, ${at.y}) has no test point in the file`);
    }
    thresholds[i] = notSeen;
  }

  const zone = text(ds, "TimezoneOffsetFromUTC");
  const takenAt =
    instant(text(ds, "PerformedProcedureStepStartDate"), text(ds, "PerformedProcedureStepStartTime"), zone, timeZone) ??
    instant(
      text(ds, "AcquisitionDateTime")?.slice(0, 8) ?? null,
      text(ds, "AcquisitionDateTime")?.slice(8) ?? null,
      text(ds, "TimezoneOffsetFromUTC"),
    ) ??
    instant(text(ds, "ContentDate"), text(ds, "ContentTime"), zone, timeZone) ??
    instant(text(ds, "SeriesDate"), text(ds, "SeriesTime"), zone, timeZone) ??
    instant(text(ds, "StudyDate"), text(ds, "StudyTime"), zone, timeZone);
  if (takenAt === null) return refuse("no date of the test (Performed Procedure Step Start Date, Content Date, Series or Study Date)");

  const catchTrials = item(ds, "VisualFieldCatchTrialSequence");
  const fixation = item(ds, "FixationSequence");
  const falsePositive = tally(catchTrials, "PositiveCatchTrialsQuantity", "FalsePositivesQuantity", "FalsePositivesEstimate");
  const falseNegative = tally(catchTrials, "NegativeCatchTrialsQuantity", "FalseNegativesQuantity", "FalseNegativesEstimate");
  const blindSpot = tally(fixation, "FixationCheckedQuantity", "PatientNotProperlyFixatedQuantity");
  const meanSensitivity = num(ds, "VisualFieldMeanSensitivity");
  const manufacturer = text(ds, "Manufacturer");
  const normalsVersion = text(item(ds, "TestPointNormalsSequence") ?? {}, "DataSetVersion");
  const background = num(ds, "BackgroundLuminance");

  const result = importedResult(
    {
      takenAt,
      eye,
      pattern,
      strategy,
      thresholds,
      catchTrials: { falseNegative, falsePositive, blindSpot },
      stimulusSize: stimulusSizeOf(num(ds, "StimulusArea")),
      stimuliShowtime: showtimeOf(num(ds, "StimulusPresentationTime")),
      presentations: num(ds, "NumberOfVisualStimuli") ?? 0,
      examinationTimeInSeconds: num(ds, "VisualFieldTestDuration") ?? 0,
      maxIntensity: num(ds, "MaximumStimulusLuminance") ?? 0,
      ...(meanSensitivity !== null ? { meanSensitivity } : {}),
      // Isopter's own file names the normative version it was analysed with; the server keeps it when it knows it.
      normativeVersion: manufacturer === "Isopter" ? normalsVersion : null,
      background: background === null ? 31.5 : Math.round(background * Math.PI * 100) / 100,
    },
    geometry.blindSpotIndices,
    {
      kind: "imported",
      format: "dicom-opv",
      key: uid,
      manufacturer,
      model: text(ds, "ManufacturerModelName"),
      serial: text(ds, "DeviceSerialNumber"),
      software: text(ds, "SoftwareVersions"),
      patternName: patternEntry?.meaning ?? null,
      strategyName: strategyEntry?.meaning ?? null,
      deviceIndices: deviceIndices(ds, points, placed.index, geometry.points.length),
      accessionNumber: text(ds, "AccessionNumber"),
      requestedProcedureId: text(item(ds, "RequestAttributesSequence") ?? {}, "RequestedProcedureID"),
      fileName,
      importedAt,
    },
  );
  const birth = text(ds, "PatientBirthDate");
  const sex = text(ds, "PatientSex");
  return {
    ok: true,
    refused: [],
    fields: [
      {
        item: `SOP Instance ${uid}`,
        patient: {
          id: text(ds, "PatientID"),
          issuer: text(ds, "IssuerOfPatientID"),
          name: personName(text(ds, "PatientName")),
          birthdate: birth === null ? null : isoDate(birth),
          sex: sex === null ? null : (sexOf[sex.toUpperCase()] ?? null),
        },
        result,
      },
    ],
  };
}
