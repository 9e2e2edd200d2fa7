import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { getPattern, pointsForEye } from "../../core/analytics/patterns.ts";
import * as codes from "../../core/dicom/codes.ts";
import {
  type CodedEntry,
  cid4250,
  cid4250ByCode,
  cid4251,
  cid4251ByCode,
  cid4252,
  cid4252ByCode,
  cid4253,
  cid4253ByCode,
  cid4254,
  cid4254ByCode,
  cid4255ByCode,
  cid4256,
  cid4256ByCode,
  cid4257,
  cid4257ByCode,
  keyMeasurementByCode,
  keyMeasurementConcepts,
  perimetryCodes,
} from "../../core/dicom/perimetry-cids.ts";
import { Eye, Pattern } from "../../core/model/enums.ts";
import { dciodvfy, readDicom } from "../cli/dicom-tools.ts";
import {
  DEVICE_PRIVATE_SCHEME,
  type HumphreyEye,
  type HumphreyPattern,
  type HumphreyStrategy,
  humphreyDataset,
  humphreyOpv,
  humphreyOpvFile,
  humphreyPoints,
  OPV_SOP_CLASS_UID,
  sitaFasterCode,
} from "./humphrey-opv.ts";

/** A naturalized DICOM item as dcmjs reads it. */
// biome-ignore lint/suspicious/noExplicitAny: dcmjs's naturalized datasets are untyped
type Item = any;

const dir = mkdtempSync(join(tmpdir(), "humphrey-opv-"));
let written = 0;
const fileOf = (buffer: Buffer) => {
  const file = join(dir, `hfa-${written++}.dcm`);
  writeFileSync(file, buffer);
  return file;
};
/** dciodvfy's only complaint about these files: the private scheme of what the standard has no code for. */
const allowedWarning = new RegExp(
  `^Warning - Unrecognized defined term <${DEVICE_PRIVATE_SCHEME}> for value 1 of attribute <Coding Scheme Designator>$`,
);
const key = (c: { CodingSchemeDesignator: string; CodeValue: string }) => `${c.CodingSchemeDesignator}:${c.CodeValue}`;
const at = (x: number, y: number) => `${x},${y}`;

const patterns: HumphreyPattern[] = ["24-2", "30-2", "10-2"];
const strategies = ["SITA Standard", "SITA Fast", "Full Threshold"] as const satisfies readonly HumphreyStrategy[];
const eyes: HumphreyEye[] = ["OD", "OS"];
const combinations = patterns.flatMap((pattern) => strategies.flatMap((strategy) => eyes.map((eye) => [pattern, strategy, eye] as const)));
const isopterPattern = { "24-2": Pattern.P24_2, "30-2": Pattern.P30_2, "10-2": Pattern.P10_2 } as const;

describe("the standard's perimetry context groups (core/dicom/perimetry-cids.ts)", () => {
  it("hold every entry of CIDs 4250-4257, each once", () => {
    expect([cid4250.length, cid4251.length, cid4252.length, cid4253.length, cid4254.length, cid4256.length, cid4257.length]).toEqual([
      15, 23, 6, 5, 6, 2, 5,
    ]);
    for (const table of [cid4250, cid4251, cid4252, cid4253, cid4254, cid4256, cid4257])
      expect(new Set(table.map(key)).size).toBe(table.length);
    expect(cid4250.map((c) => c.CodeValue)).toEqual(Array.from({ length: 15 }, (_, i) => String(111800 + i)));
    expect(cid4251.map((c) => c.CodeValue)).toEqual(Array.from({ length: 23 }, (_, i) => String(111815 + i)));
  });

  it("have no SITA Faster: no CID 4251 entry names it", () => {
    expect(cid4251.filter((c) => /faster/i.test(c.CodeMeaning))).toEqual([]);
    expect(cid4251ByCode(sitaFasterCode.CodingSchemeDesignator, sitaFasterCode.CodeValue)).toBeUndefined();
    expect(cid4251ByCode("DCM", "111817")?.CodeMeaning).toBe("Visual Field SITA-Fast Test Strategy");
  });

  it("look codes up by designator and value, reading SNOMED RT codes of older files as their SNOMED CT successors", () => {
    expect(cid4254ByCode("SCT", "125112009")).toBe(perimetryCodes.withinNormalLimits);
    expect(cid4254ByCode("SRT", "M-00101")).toBe(perimetryCodes.withinNormalLimits);
    expect(cid4254ByCode("SCT", "17621005")).toBeUndefined(); // "Normal" is not the GHT's outcome
    expect(cid4256ByCode("SRT", "R-408C3")).toBe(perimetryCodes.diagnostic);
    expect(cid4256ByCode("sct", " 360156006 ")).toBe(perimetryCodes.screening);
    expect(cid4255ByCode("SRT", "G-A12B")).toBe(perimetryCodes.white);
    expect(cid4253ByCode("SRT", "R-40775")?.CodeMeaning).toBe("None");
    expect(cid4250ByCode("DCM", "111800")).toBe(perimetryCodes.pattern24_2);
    expect(cid4250ByCode("99CZM", "111800")).toBeUndefined();
    expect(cid4250ByCode(undefined, "111800")).toBeUndefined();
    expect(cid4252ByCode("DCM", "121410")?.CodeMeaning).toBe("User chosen value");
    expect(cid4257ByCode("DCM", "111852")).toBe(perimetryCodes.visualFieldIndex);
    // MD and PSD have no CID 4257 name; the DCM key-measurement concepts are recognised apart.
    expect(cid4257ByCode("DCM", "131248")).toBeUndefined();
    expect(keyMeasurementByCode("DCM", "131248")).toBe(keyMeasurementConcepts.globalDeviation);
  });

  it("agree with the export's own codes (core/dicom/codes.ts) wherever those are the standard's", () => {
    const standard = (c: CodedEntry) => c.CodingSchemeDesignator !== codes.ISOPTER_SCHEME;
    for (const c of Object.values(codes.patternCode).filter(standard))
      expect(cid4250ByCode(c.CodingSchemeDesignator, c.CodeValue)).toMatchObject(c);
    for (const c of Object.values(codes.strategyCode).filter(standard))
      expect(cid4251ByCode(c.CodingSchemeDesignator, c.CodeValue)).toMatchObject(c);
    for (const c of Object.values(codes.screeningModeCode))
      expect(cid4252ByCode(c!.CodingSchemeDesignator, c!.CodeValue)).toMatchObject(c!);
    for (const c of Object.values(codes.ghtOutcome)) expect(cid4254ByCode(c.CodingSchemeDesignator, c.CodeValue)).toMatchObject(c);
    expect(cid4257ByCode(codes.visualFieldIndex.CodingSchemeDesignator, codes.visualFieldIndex.CodeValue)).toBeDefined();
    expect(cid4257ByCode(codes.ghtAnalysis.CodingSchemeDesignator, codes.ghtAnalysis.CodeValue)).toBeDefined();
    expect(cid4255ByCode(codes.white.CodingSchemeDesignator, codes.white.CodeValue)).toBe(perimetryCodes.white);
  });
});

describe("Humphrey-style OPV files (tests/import/humphrey-opv.ts)", () => {
  it.each(combinations)(
    "%s %s %s: dciodvfy finds 0 errors; the grid is the perimeter's; the codes are the standard's",
    (pattern, strategy, eye) => {
      const { buffer, content } = humphreyOpvFile({ pattern, strategy, eye });
      const verdict = dciodvfy(fileOf(buffer));
      expect(verdict.errors).toEqual([]);
      expect(verdict.warnings.filter((w) => !allowedWarning.test(w))).toEqual([]);

      const { meta, ds } = readDicom(buffer);
      expect(meta.MediaStorageSOPClassUID).toBe(OPV_SOP_CLASS_UID);
      expect(ds.SOPInstanceUID).toBe(content.sopInstanceUid);
      expect(ds.MeasurementLaterality).toBe(eye === "OD" ? "R" : "L");
      expect(ds.Manufacturer).toBe("Carl Zeiss Meditec");

      // The points: the HFA grid of this pattern and eye, as Isopter's own geometry has it (as the patient sees it).
      const points = ds.VisualFieldTestPointSequence as Item[];
      const inFile = points.map((p) => at(p.VisualFieldTestPointXCoordinate, p.VisualFieldTestPointYCoordinate));
      expect(inFile).toEqual(humphreyPoints(pattern, eye).map((p) => at(p.x, p.y)));
      expect(points).toHaveLength({ "24-2": 54, "30-2": 76, "10-2": 68 }[pattern]);
      const isopter = pointsForEye(getPattern(isopterPattern[pattern]), eye === "OD" ? Eye.Right : Eye.Left).map((p) => at(p.x, p.y));
      expect(new Set(inFile)).toEqual(new Set(isopter));
      // The standard's description of the grids (PS3.16, DCM 111800-111802): 6 degrees apart and 3 from each meridian
      // (the 10-2: 2 apart, 1 from each meridian), symmetric about the horizontal meridian.
      const step = pattern === "10-2" ? 2 : 6;
      for (const p of humphreyPoints(pattern, eye)) for (const v of [p.x, p.y]) expect((Math.abs(v) - step / 2) % step).toBe(0);
      expect(new Set(inFile)).toEqual(new Set(humphreyPoints(pattern, eye).map((p) => at(p.x, -p.y))));
      const blindSide = eye === "OD" ? 15 : -15;
      const blind = humphreyPoints(pattern, eye).filter((p) => p.blindSpot);
      expect(blind.map((p) => at(p.x, p.y))).toEqual(pattern === "10-2" ? [] : [at(blindSide, 3), at(blindSide, -3)]);

      // The codes: pattern and strategy from CIDs 4250 and 4251, the GHT's outcome from CID 4254, VFI named by CID 4257.
      const [patternItem, strategyItem] = ds.PerformedProtocolCodeSequence as Item[];
      expect(cid4250ByCode(patternItem.CodingSchemeDesignator, patternItem.CodeValue)?.CodeMeaning).toBe(
        `Visual Field ${pattern} Test Pattern`,
      );
      expect(cid4251ByCode(strategyItem.CodingSchemeDesignator, strategyItem.CodeValue)).toBe(
        {
          "SITA Standard": perimetryCodes.sitaStandard,
          "SITA Fast": perimetryCodes.sitaFast,
          "Full Threshold": perimetryCodes.fullThreshold,
        }[strategy],
      );
      const intent = patternItem.ProtocolContextSequence[0];
      expect(cid4256ByCode(intent.ConceptCodeSequence[0].CodingSchemeDesignator, intent.ConceptCodeSequence[0].CodeValue)).toBe(
        perimetryCodes.diagnostic,
      );
      const colour = ds.StimulusColorCodeSequence[0];
      expect(cid4255ByCode(colour.CodingSchemeDesignator, colour.CodeValue)).toBe(perimetryCodes.white);
      for (const c of ds.FixationSequence[0].FixationMonitoringCodeSequence)
        expect(cid4253ByCode(c.CodingSchemeDesignator, c.CodeValue)).toBeDefined();
      const indices = (ds.VisualFieldGlobalResultsIndexSequence as Item[]).map((i) => i.DataObservationSequence[0]);
      const named = (concept: CodedEntry) =>
        indices.find(
          (o) => cid4257ByCode(o.ConceptNameCodeSequence[0].CodingSchemeDesignator, o.ConceptNameCodeSequence[0].CodeValue) === concept,
        );
      expect(named(perimetryCodes.visualFieldIndex)).toMatchObject({ ValueType: "NUMERIC", NumericValue: content.vfi });
      const ght = named(perimetryCodes.ghtAnalysis);
      if (pattern === "10-2") expect(ght).toBeUndefined();
      else {
        expect(ght.ValueType).toBe("CODE");
        expect(cid4254ByCode(ght.ConceptCodeSequence[0].CodingSchemeDesignator, ght.ConceptCodeSequence[0].CodeValue)).toBe(
          perimetryCodes.withinNormalLimits,
        );
      }
      // Full Threshold alone has the short-term fluctuation and the corrected PSD; SITA estimates its false answers.
      expect(ds.ShortTermFluctuationCalculated).toBe(strategy === "Full Threshold" ? "YES" : "NO");
      expect(ds.VisualFieldCatchTrialSequence[0].FalsePositivesEstimateFlag).toBe(strategy === "Full Threshold" ? "NO" : "YES");
    },
  );

  it("SITA Faster: a private strategy code, no blind-spot monitoring, and still 0 dciodvfy errors", () => {
    const buffer = humphreyOpv({ pattern: "24-2", strategy: "SITA Faster", eye: "OS", fovea: 35 });
    expect(dciodvfy(fileOf(buffer)).errors).toEqual([]);
    const { ds } = readDicom(buffer);
    const strategy = ds.PerformedProtocolCodeSequence[1];
    expect(strategy).toMatchObject(sitaFasterCode);
    expect(cid4251ByCode(strategy.CodingSchemeDesignator, strategy.CodeValue)).toBeUndefined();
    expect(ds.FixationSequence[0].FixationMonitoringCodeSequence.map(key)).toEqual([key(perimetryCodes.automatedOptical)]);
    expect(ds.BlindSpotLocalized).toBe("NO");
    expect(ds.FovealSensitivity).toBe(35);
  });

  it("the sensitivities, deviations and the device's indices land at their locations, as given", () => {
    const pattern = "30-2";
    const eye = "OS";
    const points = humphreyPoints(pattern, eye);
    const sensitivities = points.map((p, i) => (p.blindSpot || i % 17 === 5 ? null : i % 13 === 0 ? 0 : 10 + (i % 23)));
    const td = points.map((_, i) => (i % 11 === 0 ? 0 : -(i % 11)));
    const pd = points.map((p, i) => (p.blindSpot ? null : i % 7 === 0 ? 1 : -(i % 7)));
    const buffer = humphreyOpv({
      pattern,
      eye,
      strategy: "SITA Fast",
      sensitivities,
      td,
      pd,
      md: -4.37,
      psd: 5.12,
      vfi: 88,
      ght: "outsideNormalLimits",
    });
    expect(dciodvfy(fileOf(buffer)).errors).toEqual([]);
    const { ds } = readDicom(buffer);
    const byLocation = new Map(
      (ds.VisualFieldTestPointSequence as Item[]).map((p) => [at(p.VisualFieldTestPointXCoordinate, p.VisualFieldTestPointYCoordinate), p]),
    );
    points.forEach((p, i) => {
      const item = byLocation.get(at(p.x, p.y))!;
      const s = sensitivities[i];
      expect(item.StimulusResults).toBe(s === null ? "NOT SEEN" : s === 0 ? "SEEN AT MAX" : "SEEN");
      if (s !== null) expect(item.SensitivityValue).toBe(s);
      const normals = item.VisualFieldTestPointNormalsSequence[0];
      expect(normals.AgeCorrectedSensitivityDeviationValue).toBe(td[i]);
      expect(normals.GeneralizedDefectCorrectedSensitivityDeviationFlag).toBe(pd[i] === null ? "NO" : "YES");
      if (pd[i] !== null) expect(normals.GeneralizedDefectCorrectedSensitivityDeviationValue).toBe(pd[i]);
    });
    const results = ds.ResultsNormalsSequence[0];
    expect(results.GlobalDeviationFromNormal).toBeCloseTo(-4.37, 5);
    expect(results.LocalizedDeviationFromNormal).toBeCloseTo(5.12, 5);
    expect(results.DataSetName).toBe("HFA normative database");
    const ght = ds.VisualFieldGlobalResultsIndexSequence[1].DataObservationSequence[0].ConceptCodeSequence[0];
    expect(cid4254ByCode(ght.CodingSchemeDesignator, ght.CodeValue)).toBe(perimetryCodes.outsideNormalLimits);
  });

  it("patient, device and UIDs as the options give them", () => {
    const uid = "2.25.1234567890";
    const { ds } = readDicom(
      humphreyOpv({
        patient: { name: "Wagner^Felix", id: "P-77", issuer: "Klinikum Nord", birthDate: "19500304", sex: "M" },
        takenAt: "2023-11-02T09:15:00",
        sopInstanceUid: uid,
        model: "HFA II-i 750",
        serialNumber: "750-4242",
      }),
    );
    expect(ds.PatientName).toEqual([{ Alphabetic: "Wagner^Felix" }]);
    expect([ds.PatientID, ds.IssuerOfPatientID, ds.PatientBirthDate, ds.PatientSex, ds.PatientAge]).toEqual([
      "P-77",
      "Klinikum Nord",
      "19500304",
      "M",
      "073Y",
    ]);
    expect([ds.StudyDate, ds.StudyTime, ds.SOPInstanceUID]).toEqual(["20231102", "091500", uid]);
    expect([ds.ManufacturerModelName, ds.DeviceSerialNumber]).toEqual(["HFA II-i 750", "750-4242"]);
  });

  it("spoils what a negative test asks for", () => {
    const shifted = readDicom(humphreyOpv({ pointShift: { x: 0.5, y: 0 } })).ds.VisualFieldTestPointSequence[0];
    expect(shifted.VisualFieldTestPointXCoordinate).toBe(humphreyPoints("24-2", "OD")[0]!.x + 0.5);
    expect(readDicom(humphreyOpv({ omitPatientId: true })).ds.PatientID ?? "").toBe("");
    expect(readDicom(humphreyOpv({ sopClassUid: "1.2.840.10008.5.1.4.1.1.104.1" })).meta.MediaStorageSOPClassUID).toBe(
      "1.2.840.10008.5.1.4.1.1.104.1",
    );
    const unknown = { CodeValue: "OPVTP117", CodingSchemeDesignator: DEVICE_PRIVATE_SCHEME, CodeMeaning: "Esterman Monocular" };
    const pattern = readDicom(humphreyOpv({ pattern: unknown })).ds.PerformedProtocolCodeSequence[0];
    expect(cid4250ByCode(pattern.CodingSchemeDesignator, pattern.CodeValue)).toBeUndefined();
    expect(() => humphreyOpv({ sensitivities: [30, 31] })).toThrow(/2 values for the 54 points of the 24-2/);
    // dciodvfy is not blind to a broken file: a point without its normals item once the file has normals.
    const td = humphreyPoints("24-2", "OD").map((p) => (p.blindSpot ? null : 0));
    expect(dciodvfy(fileOf(humphreyOpv({ td }))).errors.join("\n")).toMatch(
      /Missing attribute Type 1C Conditional Element=<VisualFieldTestPointNormalsSequence>/,
    );
    const { dataset } = humphreyDataset({ mutate: (d) => delete d.Modality });
    expect(dataset.Modality).toBeUndefined();
  });
});
