import { describe, expect, it } from "vitest";
import { Eye, Pattern, TestType } from "../../core/model/enums.ts";
import type { Examination } from "../../core/model/examination.ts";
import { laneTest } from "../../core/scheduling/next-test.ts";
import { device, measurement } from "../web/technician/fixtures.ts";

// "The running test id is the live one, else the first queued perimetry/appointment" (scheduling seed §4): the
// confirmations name that test's patient, eye and pattern.

const exam = (id: string, type: Examination["type"], over: Partial<Examination> = {}): Examination => ({
  id,
  patientId: "p9",
  type,
  eye: Eye.Left,
  notes: "",
  taken: false,
  appointmentId: "A1",
  deviceSn: "SN1",
  result: null,
  config: null,
  createdAt: "2026-01-01T10:00:00.000Z",
  updatedAt: "2026-01-01T10:00:00.000Z",
  trashedAt: null,
  ...over,
});

describe("laneTest", () => {
  it("is the running measurement, else the first queued one; nothing queued is null", () => {
    const d = device(1, [measurement("a", { patientId: "p1" }), measurement("b", { patientId: "p2", eye: Eye.Left, pattern: Pattern.G })]);
    expect(laneTest(d, false, null)).toEqual({
      patientId: "p1",
      testType: TestType.Perimetry,
      eye: Eye.Right,
      pattern: Pattern.P24_2,
      displayName: "Test a",
      itemId: "a",
    });
    expect(laneTest(d, false, "b")).toMatchObject({ patientId: "p2", eye: Eye.Left, pattern: Pattern.G, itemId: "b" });
    expect(laneTest(device(2), false, null)).toBeNull();
  });

  it("appointment variant: the appointment's first examination not yet taken, with its own eye and pattern", () => {
    const at = "2026-01-01T10:00:00.000Z";
    const appointment = {
      id: "A1",
      patientId: "p9",
      deviceSn: "SN1",
      audioGuide: true,
      tutorial: false,
      trackGaze: true,
      standaloneId: null,
      createdAt: at,
      updatedAt: at,
      trashedAt: null,
      examinations: [
        exam("e1", TestType.Amsler, { taken: true }),
        exam("e2", TestType.Perimetry, { config: { pattern: Pattern.G } as Examination["config"] }),
      ],
    };
    const d = device(1, [], { appointments: [appointment] });
    expect(laneTest(d, true, null)).toEqual({
      patientId: "p9",
      testType: TestType.Perimetry,
      eye: Eye.Left,
      pattern: Pattern.G,
      displayName: null,
      itemId: "A1",
    });
    expect(laneTest(device(2, [], { appointments: [] }), true, null)).toBeNull();
  });
});
