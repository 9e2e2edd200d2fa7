import { describe, expect, it } from "vitest";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import dcmjs from "dcmjs";
import { pointsForEye, getPattern } from "../../core/analytics/patterns.ts";
import { Eye, Pattern } from "../../core/model/enums.ts";
import { dicomWriter, OPV_SOP_CLASS_UID, opvFile } from "../../cli/export/dicom.ts";
import { exportRecord } from "../../cli/export/record.ts";
import { runExport } from "../../cli/export/run-export.ts";
import { fakeApi, sampleMeasurement, samplePatient } from "./fixtures.ts";

function read(buffer: Buffer) {
  const dict = dcmjs.data.DicomMessage.readFile(buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength) as ArrayBuffer);
  return { meta: dcmjs.data.DicomMetaDictionary.naturalizeDataset(dict.meta) as any, ds: dcmjs.data.DicomMetaDictionary.naturalizeDataset(dict.dict) as any };
}

describe("DICOM OPV export", () => {
  it("round-trips through dcmjs with the OPV SOP class, the test points and the global indices", () => {
    const p = samplePatient(9);
    const r = exportRecord(p, sampleMeasurement(p, 1, { eye: Eye.Left }))!;
    const { meta, ds } = read(opvFile(r));
    expect(meta.MediaStorageSOPClassUID).toBe(OPV_SOP_CLASS_UID);
    expect(meta.MediaStorageSOPInstanceUID).toBe(ds.SOPInstanceUID);
    expect(ds.SOPClassUID).toBe(OPV_SOP_CLASS_UID);
    expect(ds.Modality).toBe("OPV");
    expect(ds.PatientID).toBe(p.uniqueId);
    expect(ds.MeasurementLaterality).toBe("L");
    const points = ds.VisualFieldTestPointSequence as any[];
    const geometry = getPattern(Pattern.P24_2);
    expect(points).toHaveLength(54);
    const seenAs = pointsForEye(geometry, Eye.Left);
    points.forEach((pt, i) => {
      expect(pt.SensitivityValue).toBeCloseTo(r.result.thresholds[i]!, 4); // FL is 32-bit
      expect(pt.VisualFieldTestPointXCoordinate).toBe(seenAs[i]!.x);
      expect(pt.VisualFieldTestPointYCoordinate).toBe(seenAs[i]!.y);
      expect(pt.StimulusResults).toBe(r.result.thresholds[i]! > 0 ? "SEEN" : "NOT SEEN");
    });
    const nv = r.analysis().normative!;
    const firstNormal = points.findIndex((_, i) => !geometry.blindSpotIndices.includes(i));
    expect(points[firstNormal].VisualFieldTestPointNormalsSequence[0].AgeCorrectedSensitivityDeviationValue).toBeCloseTo(nv.td[firstNormal]!, 3);
    expect(ds.ResultsNormalsSequence[0].GlobalDeviationFromNormal).toBeCloseTo(nv.global.tmd, 3);
    expect(ds.ResultsNormalsSequence[0].LocalizedDeviationFromNormal).toBeCloseTo(nv.global.psd, 3);
    expect(ds.VisualFieldCatchTrialSequence[0].PositiveCatchTrialsQuantity).toBe(10);
    expect(ds.FixationSequence[0].PatientNotProperlyFixatedQuantity).toBe(1);
  });

  it("the same result gets the same UIDs; another result other UIDs", () => {
    const p = samplePatient(9);
    const a = read(opvFile(exportRecord(p, sampleMeasurement(p, 1))!)).ds;
    const b = read(opvFile(exportRecord(p, sampleMeasurement(p, 1))!)).ds;
    const c = read(opvFile(exportRecord(p, sampleMeasurement(p, 2))!)).ds;
    expect(a.SOPInstanceUID).toBe(b.SOPInstanceUID);
    expect(a.SOPInstanceUID).not.toBe(c.SOPInstanceUID);
    expect(a.SOPInstanceUID).toMatch(/^2\.25\.\d+$/);
    expect(a.SOPInstanceUID.length).toBeLessThanOrEqual(64);
  });

  it("writes one .dcm per result into the directory", async () => {
    const dir = mkdtempSync(join(tmpdir(), "isopter-dcm-"));
    const summary = await runExport(fakeApi({ patients: 2, resultsPerPatient: 3 }), { kind: "organisation" }, { reliableOnly: false }, dicomWriter(dir));
    const files = readdirSync(dir).sort();
    expect(summary.results).toBe(6);
    expect(files).toHaveLength(6);
    expect(files[0]).toMatch(/^p00000_\d{4}-\d{2}-\d{2}_O[DS]_p00000-m\d\.dcm$/);
    expect(read(readFileSync(join(dir, files[0]!))).ds.SOPClassUID).toBe(OPV_SOP_CLASS_UID);
  });
});
