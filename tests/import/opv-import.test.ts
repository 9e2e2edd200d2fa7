import { describe, expect, it } from "vitest";
import { getPattern, pointsForEye } from "../../core/analytics/patterns.ts";
import type { ImportedField } from "../../core/import/imported-field.ts";
import { readOpv } from "../../core/import/opv.ts";
import { Eye, Pattern, Sex, Strategy } from "../../core/model/enums.ts";
import { decoderFor, readPart10 } from "../../simulator/server/import/part10.ts";
import { humphreyOpvFile, humphreyPoints, type HumphreyEye, type HumphreyPattern, type HumphreyStrategy } from "./humphrey-opv.ts";

// Issue 29: "A Humphrey-style OPV (SITA Standard/Fast/Faster or Full Threshold; 24-2, 30-2, 10-2 in its own point
// coordinates; the device's own TD, PD, MD, PSD, VFI, GHT and probabilities inside) imports as follows: the sensitivities
// go to their locations; the strategy is kept as the file names it; the file's own indices are kept and shown as the
// device's, labelled with manufacturer and model". The files are built from the standard's attributes
// (tests/import/humphrey-opv.ts); the reader sees only the naturalized dataset, as the server hands it over.

/** As the server reads an uploaded file (simulator/server/import/part10.ts). */
const read = (buffer: Buffer, timeZone = "UTC") => readOpv(readPart10(buffer), "field.dcm", "2026-11-28T00:00:00.000Z", timeZone);
const field = (buffer: Buffer, timeZone?: string): ImportedField => {
  const reading = read(buffer, timeZone);
  if (!reading.ok) throw new Error(reading.reason);
  expect(reading.refused).toEqual([]);
  return reading.fields[0]!;
};
const refusal = (buffer: Buffer): string => {
  const reading = read(buffer);
  return reading.ok ? (reading.refused[0]?.reason ?? "imported") : reading.reason;
};

const patterns: Record<HumphreyPattern, Pattern> = { "24-2": Pattern.P24_2, "30-2": Pattern.P30_2, "10-2": Pattern.P10_2 };
const eyes: Record<HumphreyEye, Eye> = { OD: Eye.Right, OS: Eye.Left };

describe("a Humphrey-style OPV imports", () => {
  const cases = (["24-2", "30-2", "10-2"] as const).flatMap((p) =>
    (["SITA Standard", "SITA Fast", "SITA Faster", "Full Threshold"] as const).flatMap((s) =>
      (["OD", "OS"] as const).map((e) => [p, s, e] as const),
    ),
  );
  it.each(cases)("%s %s %s: every sensitivity at its location, not seen as <0 dB, the strategy as the file names it", (p, s, e) => {
    const points = humphreyPoints(p, e);
    const sensitivities = points.map((pt, k) => (pt.blindSpot ? null : k % 11 === 5 ? null : k % 7 === 3 ? 0 : 20 + (k % 13)));
    const { buffer, content } = humphreyOpvFile({ pattern: p, strategy: s as HumphreyStrategy, eye: e, sensitivities, seed: 3 });
    const f = field(buffer);
    const pattern = patterns[p];
    const locations = pointsForEye(getPattern(pattern), eyes[e]);
    expect(f.result.pattern).toBe(pattern);
    expect(f.result.eye).toBe(eyes[e]);
    points.forEach((pt, k) => {
      const i = locations.findIndex((l) => l.x === pt.x && l.y === pt.y);
      expect(i, `(${pt.x}, ${pt.y}) is a location`).toBeGreaterThanOrEqual(0);
      expect(f.result.thresholds[i], `(${pt.x}, ${pt.y})`).toBe(sensitivities[k] === null ? -1 : sensitivities[k]);
    });
    // SITA and Full Threshold are not Isopter strategies: kept by name, the strategy itself undefined.
    expect(f.result.strategy).toBe(Strategy.Undefined);
    expect(f.result.source.strategyName).toBe(content.strategyCode.CodeMeaning);
    expect(f.result.source).toMatchObject({
      manufacturer: "Carl Zeiss Meditec",
      model: "HFA3 860",
      format: "dicom-opv",
      key: content.sopInstanceUid,
    });
  });

  it("the device's own TD, PD, their probabilities, MD, PSD, VFI and GHT are kept per location as the device's", () => {
    const points = humphreyPoints("24-2", "OS");
    const td = points.map((_, k) => -(k % 9) || 0);
    const pd = points.map((pt, k) => (pt.blindSpot ? null : -(k % 5) || 0));
    const { buffer } = humphreyOpvFile({
      pattern: "24-2",
      eye: "OS",
      td,
      pd,
      md: -4.37,
      mdProbability: 1,
      psd: 5.12,
      psdProbability: 2,
      vfi: 88,
      ght: "outsideNormalLimits",
    });
    const f = field(buffer);
    const locations = pointsForEye(getPattern(Pattern.P24_2), Eye.Left);
    const d = f.result.source.deviceIndices!;
    expect(d).toMatchObject({ md: -4.37, mdProbability: 1, psd: 5.12, psdProbability: 2, vfi: 88, ght: "Outside normal limits" });
    points.forEach((pt, k) => {
      const i = locations.findIndex((l) => l.x === pt.x && l.y === pt.y);
      expect(d.td![i]).toBe(td[k]);
      expect(d.pd![i]).toBe(pd[k]);
    });
    expect(d.tdProbability!.every((v) => v !== null)).toBe(true);
  });

  it("the patient as the file names them; a local time without an offset is read in the clinic's zone", () => {
    const { buffer } = humphreyOpvFile({
      patient: { name: "Müller^Jürgen", id: "MRN-77", birthDate: "19490215", sex: "M" },
      takenAt: "2021-07-01T09:30:00",
    });
    const f = field(buffer, "Europe/Berlin");
    expect(f.patient).toEqual({ id: "MRN-77", issuer: null, name: "Jürgen Müller", birthdate: "1949-02-15", sex: Sex.Male });
    expect(f.result.takenAt).toBe("2021-07-01T07:30:00.000Z");
    const withOffset = field(humphreyOpvFile({ takenAt: "2021-07-01T09:30:00", timezoneOffset: "-0500" }).buffer, "Europe/Berlin");
    expect(withOffset.result.takenAt).toBe("2021-07-01T14:30:00.000Z");
  });

  it("SITA's false-positive and false-negative estimates are kept as rates (errors of 100)", () => {
    const f = field(humphreyOpvFile({ strategy: "SITA Standard", falsePositivePercent: 7, falseNegativePercent: 3 }).buffer);
    expect(f.result.catchTrials.falsePositive).toEqual({ errors: 7, presentations: 100 });
    expect(f.result.falsePositives).toBe(0.07);
  });

  it("refuses, naming why: a file that is not an OPV, an unknown pattern, points off the grid, no laterality", () => {
    expect(refusal(humphreyOpvFile({ sopClassUid: "1.2.840.10008.5.1.4.1.1.104.1" }).buffer)).toBe(
      "not a DICOM OPV file: it is an Encapsulated PDF (a printed report, not measurements)",
    );
    expect(
      refusal(
        humphreyOpvFile({ pattern: { CodeValue: "111803", CodingSchemeDesignator: "DCM", CodeMeaning: "Visual Field 60-4 Test Pattern" } })
          .buffer,
      ),
    ).toBe("unknown pattern: Visual Field 60-4 Test Pattern (DCM 111803) is not a pattern Isopter has");
    expect(refusal(humphreyOpvFile({ pattern: "24-2", pointShift: { x: 1, y: 0 } }).buffer)).toMatch(
      /^test point \(-8, 21\) is not a location of the 24-2/,
    );
    expect(refusal(humphreyOpvFile({ mutate: (ds) => delete ds.MeasurementLaterality }).buffer)).toBe(
      "Measurement Laterality (none): not R, L or B",
    );
  });

  it("a file without a pattern code is placed by its points when they are exactly one of Isopter's patterns", () => {
    const { buffer } = humphreyOpvFile({
      pattern: "30-2",
      eye: "OD",
      mutate: (ds) =>
        void (ds.PerformedProtocolCodeSequence = (ds.PerformedProtocolCodeSequence as Array<{ CodeValue: string }>).filter(
          (c) => c.CodeValue !== "111802",
        )),
    });
    expect(field(buffer).result.pattern).toBe(Pattern.P30_2);
  });
});

describe("names in the file's character set (Specific Character Set, PS3.3 C.12.1.1.2)", () => {
  it("decodes Unicode, Latin-1, Latin-5 (Turkish), Cyrillic and GB18030; ISO 2022 terms by their single-byte set", () => {
    const text = (charset: string | undefined, bytes: number[]) => decoderFor(charset).decode(Uint8Array.from(bytes));
    expect(text("ISO_IR 192", [0x4d, 0xc3, 0xbc])).toBe("Mü");
    expect(text("ISO_IR 100", [0x4d, 0xfc])).toBe("Mü");
    expect(text(undefined, [0x4d, 0xfc])).toBe("Mü");
    expect(text("ISO_IR 148", [0xde, 0xfd])).toBe("Şı");
    expect(text("ISO_IR 144", [0xbf, 0xd5])).toBe("Пе");
    expect(text("GB18030", [0xd5, 0xc5])).toBe("张");
    expect(text("\\ISO 2022 IR 100", [0xfc])).toBe("ü");
  });
});
