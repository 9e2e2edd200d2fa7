import { describe, expect, it, vi } from "vitest";

vi.mock("@lingui/core/macro", () => import("../lingui-shim.tsx"));
vi.mock("@lingui/react/macro", () => import("../lingui-shim.tsx"));

import type { Appointment } from "../../../core/model/appointment.ts";
import type { Examination } from "../../../core/model/examination.ts";
import type { RunningTest } from "../../../core/model/running-test.ts";
import { Eye, Pattern, Showtime, StimuliUpdate, StimulusSize, Strategy } from "../../../core/model/enums.ts";
import { perimetryUnderWay } from "../../../web/technician/Lane.tsx";

// Appointment variant: "A live measurement panel shows a legend of answered, not answered and presented stimuli and a
// progress bar" (scheduling seed §2) for the appointment's perimetry examination under way.

const at = "2026-01-01T10:00:00.000Z";
const exam = (id: string, type: Examination["type"], over: Partial<Examination> = {}): Examination => ({
  id,
  patientId: "p1",
  type,
  eye: Eye.Left,
  notes: "",
  taken: false,
  appointmentId: "A1",
  deviceSn: "SN1",
  result: null,
  config: null,
  createdAt: at,
  updatedAt: at,
  trashedAt: null,
  ...over,
});
const config = {
  pattern: Pattern.G,
  strategy: Strategy.Supra,
  stimuliUpdate: StimuliUpdate.Ms2000,
  stimuliSize: StimulusSize.III,
  stimuliShowtime: Showtime.Ms200,
  sorsLocations: 36 as const,
  sorsStage: 36 as const,
  playSound: false,
  trackGaze: true,
  audioGuide: true,
};
const appointment: Appointment = {
  id: "A1",
  patientId: "p1",
  deviceSn: "SN1",
  audioGuide: true,
  tutorial: false,
  trackGaze: true,
  standaloneId: null,
  createdAt: at,
  updatedAt: at,
  trashedAt: null,
  examinations: [exam("e1", "amsler"), exam("e2", "perimetry", { config })],
};
const live = (examinationId: string, appointmentId = "A1"): RunningTest => ({
  perimetryId: null,
  appointmentId,
  examinationId,
  nTested: 3,
  nLocations: 59,
  gazeTracking: true,
  thresholds: [],
  lastUpdatedIndex: null,
});

describe("perimetryUnderWay", () => {
  it("draws the running perimetry examination with its own pattern, strategy and eye, and names the appointment's patient", () => {
    expect(perimetryUnderWay([appointment], live("e2"), "Perimetry")).toEqual({
      displayName: "Perimetry",
      pattern: Pattern.G,
      strategy: Strategy.Supra,
      eye: Eye.Left,
      patientId: appointment.patientId,
    });
  });

  it("has nothing to draw for other examinations, unknown ones, or another appointment's progress", () => {
    expect(perimetryUnderWay([appointment], live("e1"), "Perimetry")).toBeUndefined();
    expect(perimetryUnderWay([appointment], live("nope"), "Perimetry")).toBeUndefined();
    expect(perimetryUnderWay([appointment], live("e2", "A2"), "Perimetry")).toBeUndefined();
  });
});
