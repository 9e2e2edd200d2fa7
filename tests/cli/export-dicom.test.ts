import { ghtOutcome } from "../../core/dicom/codes.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getPattern, pointsForEye } from "../../core/analytics/patterns.ts";
import { Eye, Pattern, Strategy, type Pattern as PatternT } from "../../core/model/enums.ts";
import { exportContext } from "../../cli/export/context.ts";
import { OPV_SOP_CLASS_UID, opvFile, part10, personName, probabilityPercent } from "../../cli/export/dicom.ts";
import { ENCAPSULATED_PDF_SOP_CLASS_UID, pdfDataset } from "../../cli/export/dicom-pdf.ts";
import { parseStoreTarget, storeFiles } from "../../cli/export/dicom-send.ts";
import { dicomWriter } from "../../cli/export/dicom-writer.ts";
import { exportRecord, type ExportRecord } from "../../cli/export/record.ts";
import { runExport } from "../../cli/export/run-export.ts";
import { dciodvfy, readDicom, startStorescp, type Receiver } from "./dicom-tools.ts";
import { FAKE_USER, startFakeBackend, type FakeBackend } from "./fake-backend.ts";
import { FAKE_ORGANISATION, fakeApi, sampleMeasurement, samplePatient } from "./fixtures.ts";
import { isopter, tempHome } from "./harness.ts";

const context = exportContext(FAKE_ORGANISATION, { timeZone: "Europe/Berlin" });
const fakePdf = async (r: ExportRecord) => new TextEncoder().encode(`%PDF-1.7\n% ${r.test.id}\n%%EOF\n`);
const read = (buffer: Buffer) => readDicom(buffer);
const tmp = () => mkdtempSync(join(tmpdir(), "isopter-dcm-"));

/** Every pattern the product runs with a strategy it runs it with (threshold and screening). */
const everyPattern: Array<[PatternT, Strategy, Eye]> = [
  [Pattern.P24_2, Strategy.DS, Eye.Right],
  [Pattern.P24_2, Strategy.SORS, Eye.Left],
  [Pattern.P24_2, Strategy.Supra, Eye.Left],
  [Pattern.P30_2, Strategy.Normal, Eye.Left],
  [Pattern.P10_2, Strategy.Normal, Eye.Right],
  [Pattern.G, Strategy.DS, Eye.Left],
  [Pattern.G, Strategy.SORS_screening, Eye.Right],
  [Pattern.S28, Strategy.Supra, Eye.Right],
  [Pattern.C40, Strategy.OneLevel, Eye.Left],
  [Pattern.Esterman, Strategy.OneLevel, Eye.Binocular],
];

/**
 * The warnings dciodvfy may give, each one something the data model cannot say: our own codes where the standard's
 * context groups have none (SORS, supra-threshold, S28, the analysis algorithms), and no study time (a visit's results
 * are written one by one, so the study's first time is not known when the first file is written).
 */
const allowedWarnings = [
  /^Warning - Unrecognized defined term <99ISOPTER> for value 1 of attribute <Coding Scheme Designator>$/,
  /^Warning - Missing attribute or value that would be needed to build DICOMDIR - Study Time$/,
];

describe("DICOM OPV export", () => {
  it.each(everyPattern)(
    "pattern %s, strategy %s, eye %s: dciodvfy finds 0 errors, and only the listed warnings",
    (pattern, strategy, eye) => {
      const p = samplePatient(4);
      const r = exportRecord(p, sampleMeasurement(p, 1, { pattern, strategy, eye }))!;
      const dir = tmp();
      writeFileSync(join(dir, "opv.dcm"), opvFile(r, context));
      const verdict = dciodvfy(join(dir, "opv.dcm"));
      expect(verdict.errors).toEqual([]);
      expect(verdict.warnings.filter((w) => !allowedWarnings.some((a) => a.test(w)))).toEqual([]);
    },
  );

  it("the validator is not blind: a file missing a Type 1 attribute gets an error", async () => {
    const p = samplePatient(4);
    const r = exportRecord(p, sampleMeasurement(p, 1))!;
    const { opvDataset } = await import("../../cli/export/dicom.ts");
    const dataset = opvDataset(r, context);
    delete dataset.StimulusArea;
    const file = join(tmp(), "bad.dcm");
    writeFileSync(file, part10(dataset));
    expect(dciodvfy(file).errors.join("\n")).toMatch(/Missing attribute Type 1 Required Element=<StimulusArea>/);
  });

  it("points as the patient sees them; seen with its sensitivity, not seen without one (0 dB seen stays apart); TD/PD with probabilities", () => {
    const p = samplePatient(9);
    const m = sampleMeasurement(p, 3, { eye: Eye.Left, strategy: Strategy.DS });
    const thresholds = [...m.result!.thresholds];
    thresholds[0] = 0; // seen at the brightest level
    thresholds[1] = -1; // "<0 dB": not seen
    const r = exportRecord(p, { ...m, result: { ...m.result!, thresholds } })!;
    const { meta, ds } = read(opvFile(r, context));
    expect(meta.MediaStorageSOPClassUID).toBe(OPV_SOP_CLASS_UID);
    expect(ds.Modality).toBe("OPV");
    expect(ds.MeasurementLaterality).toBe("L");
    expect(ds.Laterality).toBeUndefined();
    const geometry = getPattern(Pattern.P24_2);
    const tested = pointsForEye(geometry, Eye.Left).flatMap((pt, i) => (geometry.blindSpotIndices.includes(i) ? [] : [{ pt, i }]));
    const points = ds.VisualFieldTestPointSequence as any[];
    expect(points).toHaveLength(52); // the two blind-spot locations of the 24-2 grid are not tested points
    expect(points[0]).toMatchObject({ StimulusResults: "SEEN", SensitivityValue: 0 });
    expect(points[1].StimulusResults).toBe("NOT SEEN");
    expect(points[1].SensitivityValue).toBeUndefined();
    const nv = r.analysis().normative!;
    points.forEach((pt, k) => {
      const { pt: at, i } = tested[k]!;
      expect([pt.VisualFieldTestPointXCoordinate, pt.VisualFieldTestPointYCoordinate]).toEqual([at.x, at.y]);
      const normals = pt.VisualFieldTestPointNormalsSequence[0];
      expect(normals.AgeCorrectedSensitivityDeviationValue).toBeCloseTo(nv.td[i]!, 3);
      expect(normals.AgeCorrectedSensitivityDeviationProbabilityValue).toBe(probabilityPercent(nv.tdp[i]));
      expect(normals.GeneralizedDefectCorrectedSensitivityDeviationValue).toBeCloseTo(nv.pd[i]!, 3);
    });
    expect(ds.ResultsNormalsSequence[0].GlobalDeviationFromNormal).toBeCloseTo(nv.global.tmd, 3);
    expect(ds.ResultsNormalsSequence[0].GlobalDeviationProbabilitySequence[0].GlobalDeviationProbability).toBe(
      probabilityPercent(nv.globalLevels.tmd),
    );
    expect(ds.ResultsNormalsSequence[0].LocalizedDeviationFromNormal).toBeCloseTo(nv.global.psd, 3);
    const indices = ds.VisualFieldGlobalResultsIndexSequence as any[];
    expect(indices[0].DataObservationSequence[0]).toMatchObject({ ConceptNameCodeSequence: [{ CodeValue: "111852" }] });
    expect(indices[0].DataObservationSequence[0].NumericValue).toBeCloseTo(nv.global.vfi, 3);
    if (nv.ght) expect(indices[1].DataObservationSequence[0].ConceptNameCodeSequence[0].CodeValue).toBe("111855");
    // CID 4254 (Visual Field Static Perimetry Test Analysis Result): DCM 111847-111851, and "within normal limits" as
    // SNOMED CT 125112009, not 17621005 "Normal".
    expect(ghtOutcome["within normal limits"]).toEqual({
      CodeValue: "125112009",
      CodingSchemeDesignator: "SCT",
      CodeMeaning: "Within normal limits",
    });
    if (nv.ght) expect(indices[1].DataObservationSequence[0].ConceptCodeSequence[0]).toMatchObject(ghtOutcome[nv.ght.outcome]!);
    // PS3.3 C.8.26.2.1: the maximum angular subtend of the tested field, not how far its points reach from fixation: a
    // 24-2's points run from 27 degrees nasally to 21 temporally (48 wide; the left eye seen as the patient sees it,
    // -21..27) and from -21 to 21 up and down (42 high).
    expect([ds.VisualFieldHorizontalExtent, ds.VisualFieldVerticalExtent]).toEqual([48, 42]);
  });

  it("codes the pattern and the strategy (CID 4250, 4251) in the Performed Protocol Code Sequence", () => {
    const p = samplePatient(2);
    const codesOf = (pattern: PatternT, strategy: Strategy) =>
      read(opvFile(exportRecord(p, sampleMeasurement(p, 1, { pattern, strategy }))!, context)).ds.PerformedProtocolCodeSequence.map(
        (c: any) => `${c.CodingSchemeDesignator}:${c.CodeValue}`,
      );
    expect(codesOf(Pattern.P24_2, Strategy.DS)).toEqual(["DCM:111800", "DCM:111826"]);
    expect(codesOf(Pattern.P30_2, Strategy.Normal)).toEqual(["DCM:111802", "DCM:111827"]);
    expect(codesOf(Pattern.G, Strategy.SORS)).toEqual(["DCM:111810", "99ISOPTER:SORS"]);
    expect(codesOf(Pattern.Esterman, Strategy.OneLevel)).toEqual(["DCM:111809", "DCM:111828"]);
  });

  it("one study per visit: both eyes of a day share it, another day is another study; times are the clinic's with the offset", () => {
    const p = samplePatient(2);
    const at = (takenAt: string, eye: Eye) => read(opvFile(exportRecord(p, sampleMeasurement(p, eye, { takenAt, eye }))!, context)).ds;
    const right = at("2024-07-01T08:00:00.000Z", Eye.Right),
      left = at("2024-07-01T08:20:00.000Z", Eye.Left);
    const next = at("2024-07-02T08:00:00.000Z", Eye.Right);
    expect(right.StudyInstanceUID).toBe(left.StudyInstanceUID);
    expect(right.SeriesInstanceUID).not.toBe(left.SeriesInstanceUID);
    expect(next.StudyInstanceUID).not.toBe(right.StudyInstanceUID);
    expect([right.StudyDate, right.SeriesTime, right.TimezoneOffsetFromUTC]).toEqual(["20240701", "100000", "+0200"]);
    // Just before midnight UTC is the next day in Berlin: the visit is the clinic's day.
    expect(at("2024-01-01T23:30:00.000Z", Eye.Right).StudyDate).toBe("20240102");
  });

  it("the patient's name in PN form (family^given), in UTF-8", () => {
    expect(personName("Şükrü Yılmaz")).toBe("Yılmaz^Şükrü");
    expect(personName("李伟")).toBe("李伟");
    const p = { ...samplePatient(2), name: "Şükrü Yılmaz" };
    const { ds } = read(opvFile(exportRecord(p, sampleMeasurement(samplePatient(2), 1))!, context));
    expect(ds.SpecificCharacterSet).toBe("ISO_IR 192");
    expect(ds.PatientName).toEqual([{ Alphabetic: "Yılmaz^Şükrü" }]);
  });

  it("without a device serial number: written UNKNOWN, with a warning naming the result", () => {
    const p = samplePatient(2);
    const m = sampleMeasurement(p, 1);
    const r = exportRecord(p, { ...m, deviceSn: null, result: { ...m.result!, deviceAlias: null } })!;
    const warnings: string[] = [];
    const { ds } = read(opvFile(r, context, (w) => warnings.push(w)));
    expect(ds.DeviceSerialNumber).toBe("UNKNOWN");
    expect(warnings).toEqual(["no device serial number or alias is stored: DeviceSerialNumber is UNKNOWN"]);
  });

  it("the printed page as an Encapsulated PDF instance in the same study: dciodvfy finds 0 errors, the bytes are the PDF", async () => {
    const p = samplePatient(4);
    const r = exportRecord(p, sampleMeasurement(p, 1))!;
    const pdf = await fakePdf(r);
    const file = join(tmp(), "pdf.dcm");
    writeFileSync(file, part10(pdfDataset(r, pdf, context)));
    const verdict = dciodvfy(file);
    expect(verdict.errors).toEqual([]);
    expect(verdict.warnings.filter((w) => !allowedWarnings.some((a) => a.test(w)))).toEqual([]);
    const { ds } = read(readFileSync(file));
    expect(ds.SOPClassUID).toBe(ENCAPSULATED_PDF_SOP_CLASS_UID);
    expect(ds.StudyInstanceUID).toBe(read(opvFile(r, context)).ds.StudyInstanceUID);
    expect(Buffer.from(ds.EncapsulatedDocument[0]).subarray(0, ds.EncapsulatedDocumentLength).toString()).toBe(Buffer.from(pdf).toString());
  });

  it("writes the OPV and its report per result into the directory", async () => {
    const dir = tmp();
    const writer = dicomWriter(dir, { context, pdf: fakePdf });
    const summary = await runExport(
      fakeApi({ patients: 2, resultsPerPatient: 3 }),
      { kind: "organisation" },
      { reliableOnly: false },
      writer,
    );
    const files = readdirSync(dir).sort();
    expect(summary.results).toBe(6);
    expect(files).toHaveLength(12);
    expect(files[0]).toMatch(/^p00000_\d{4}-\d{2}-\d{2}_O[DS]_p00000-m\d\.dcm$/);
    expect(files[1]).toMatch(/^p00000_\d{4}-\d{2}-\d{2}_O[DS]_p00000-m\d_report\.dcm$/);
    expect(writer.files).toHaveLength(12);
  });
});

describe("C-STORE to a real receiver (dcmtk storescp)", () => {
  let receiver: Receiver;
  beforeAll(async () => void (receiver = await startStorescp()));
  afterAll(async () => receiver?.stop());

  it("--send reads AET@HOST:PORT", () => {
    expect(parseStoreTarget("PACS@10.0.0.5:104")).toEqual({ aet: "PACS", host: "10.0.0.5", port: 104 });
    expect(parseStoreTarget("PACS@pacs.clinic.example:11112")).toEqual({ aet: "PACS", host: "pacs.clinic.example", port: 11112 });
    for (const bad of ["PACS@host", "@host:104", "PACS@host:0", "PACS@host:70000", "A_TITLE_LONGER_THAN_16@h:1"])
      expect(parseStoreTarget(bad)).toBeNull();
  });

  it("stores every file; the receiver holds the same SOP instances", async () => {
    const dir = tmp();
    const writer = dicomWriter(dir, { context, pdf: fakePdf });
    await runExport(fakeApi({ patients: 2, resultsPerPatient: 2 }), { kind: "organisation" }, { reliableOnly: false }, writer);
    const outcomes = await storeFiles({ aet: receiver.aet, host: "127.0.0.1", port: receiver.port }, writer.files);
    expect(outcomes.map((o) => [o.status, o.stored])).toEqual(writer.files.map(() => [0, true]));
    const uids = (files: readonly string[]) => files.map((f) => read(readFileSync(f)).ds.SOPInstanceUID).sort();
    expect(uids(receiver.received())).toEqual(uids(writer.files));
  });

  it("a receiver that refuses the association: the send fails naming it", async () => {
    const refusing = await startStorescp({ refuse: true });
    try {
      const dir = tmp();
      const file = join(dir, "one.dcm");
      const p = samplePatient(1);
      writeFileSync(file, opvFile(exportRecord(p, sampleMeasurement(p, 1))!, context));
      await expect(storeFiles({ aet: refusing.aet, host: "127.0.0.1", port: refusing.port }, [file], 5_000)).rejects.toThrow(
        /STORESCP@127\.0\.0\.1:\d+ rejected the association|127\.0\.0\.1:\d+/,
      );
      expect(refusing.received()).toEqual([]);
    } finally {
      await refusing.stop();
    }
  });
});

describe("isopter export --format dicom --send: what the user sees (a real storescp, the CLI in-process)", () => {
  let backend: FakeBackend;
  let home: string;
  // Patient p00001's first result was stored without a device serial number or alias.
  beforeAll(async () => {
    backend = await startFakeBackend({ patients: 2, resultsPerPatient: 2, options: (i, k) => ({ noDevice: i === 1 && k === 0 }) });
    home = tempHome();
    const login = await isopter(["login", "--server", backend.url, "-u", FAKE_USER.username, "--password-stdin"], {
      env: { ISOPTER_HOME: home },
      stdin: `${FAKE_USER.password}\n`,
    });
    expect(login.code, login.stderr).toBe(0);
  });
  afterAll(() => backend?.close());
  const exportTo = (receiver: Receiver, dir: string, ...extra: string[]) =>
    isopter(["export", "--all", "--format", "dicom", "--out", dir, "--send", `${receiver.aet}@127.0.0.1:${receiver.port}`, ...extra], {
      env: { ISOPTER_HOME: home, ISOPTER_TIME_ZONE: "Europe/Berlin" },
    });

  it("a PACS that stores OPV but refuses Encapsulated PDF: each refused file named with its status, the OPV stored, exit code 1", async () => {
    const receiver = await startStorescp({ acceptOnly: [OPV_SOP_CLASS_UID] });
    try {
      const dir = tmp();
      const run = await exportTo(receiver, dir);
      const files = readdirSync(dir).sort();
      const reports = files.filter((f) => f.endsWith("_report.dcm"));
      expect(files).toHaveLength(8);
      expect(reports).toHaveLength(4);
      expect(run.code).toBe(1);
      const refusals = run.stderr.split("\n").filter((l) => l.startsWith("not stored: "));
      expect(refusals.sort()).toEqual(
        reports.map(
          (f) =>
            `not stored: ${join(dir, f)} (status 0x0122: the receiver accepted no presentation context for ${ENCAPSULATED_PDF_SOP_CLASS_UID})`,
        ),
      );
      expect(run.stderr).toContain(`Stored 4 of 8 files in ${receiver.aet}@127.0.0.1:${receiver.port}.`);
      expect(run.stderr).toContain(`4 of 8 files were not stored by ${receiver.aet}`);
      // What the receiver holds is exactly the OPV instances.
      const uids = (list: readonly string[]) => list.map((f) => read(readFileSync(f)).ds.SOPInstanceUID as string).sort();
      expect(uids(receiver.received())).toEqual(uids(files.filter((f) => !f.endsWith("_report.dcm")).map((f) => join(dir, f))));
    } finally {
      await receiver.stop();
    }
  });

  it("the reverse (a document archive that takes only the PDF): the OPV files are the ones named; --json lists them too", async () => {
    const receiver = await startStorescp({ acceptOnly: [ENCAPSULATED_PDF_SOP_CLASS_UID] });
    try {
      const dir = tmp();
      const run = await exportTo(receiver, dir, "--json");
      expect(run.code).toBe(1);
      const summary = JSON.parse(run.stderr.split("\n").find((l) => l.startsWith("{"))!);
      expect(summary.sent).toBe(8);
      expect(summary.stored).toBe(4);
      expect(summary.refused.map((r: { file: string; status: string }) => [r.file.endsWith("_report.dcm"), r.status])).toEqual(
        Array.from({ length: 4 }, () => [false, "0x0122"]),
      );
      expect(receiver.received()).toHaveLength(4);
    } finally {
      await receiver.stop();
    }
  });

  it("a receiver that refuses the association: one line naming it and exit code 1 (refused), the files still written", async () => {
    const receiver = await startStorescp({ refuse: true });
    try {
      const dir = tmp();
      const run = await exportTo(receiver, dir);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(new RegExp(`--send: ${receiver.aet}@127\\.0\\.0\\.1:${receiver.port} rejected the association`));
      expect(readdirSync(dir)).toHaveLength(8);
      expect(receiver.received()).toEqual([]);
    } finally {
      await receiver.stop();
    }
  });

  it("nothing listening: exit code 4 (unreachable)", async () => {
    const { freePort } = await import("./dicom-tools.ts");
    const port = await freePort();
    const run = await isopter(["export", "--all", "--format", "dicom", "--out", tmp(), "--send", `NOBODY@127.0.0.1:${port}`], {
      env: { ISOPTER_HOME: home },
    });
    expect(run.code, run.stderr).toBe(4);
    expect(run.stderr).toMatch(new RegExp(`--send: 127\\.0\\.0\\.1:${port}`));
  });

  it("a result the standard cannot fully express is written with a warning: line naming the result and the element", async () => {
    const receiver = await startStorescp();
    try {
      const dir = tmp();
      const run = await exportTo(receiver, dir);
      expect(run.code, run.stderr).toBe(0);
      const warnings = run.stderr.split("\n").filter((l) => l.startsWith("warning:"));
      // Once per result, though its OPV and its PDF instance both carry the equipment attributes.
      expect(warnings).toEqual([
        "warning: result p00001-m0 (patient U-1001): no device serial number or alias is stored: DeviceSerialNumber is UNKNOWN",
      ]);
      const file = readdirSync(dir).find((f) => f.includes("p00001-m0") && !f.endsWith("_report.dcm"))!;
      expect(read(readFileSync(join(dir, file))).ds.DeviceSerialNumber).toBe("UNKNOWN");
      expect(dciodvfy(join(dir, file)).errors).toEqual([]);
    } finally {
      await receiver.stop();
    }
  });
});
