import type { Appointment } from "../../core/model/appointment.ts";
import type { Device } from "../../core/model/device.ts";
import type { Examination } from "../../core/model/examination.ts";
import { Eye } from "../../core/model/enums.ts";
import { newMeasurement, type Measurement } from "../../core/model/measurement.ts";
import { measurementConfigWith } from "../../core/rules/defaults.ts";
import type { MeasurementResult } from "../../core/model/measurement-result.ts";
import type { Patient } from "../../core/model/patient.ts";
import type { RunningTest } from "../../core/model/running-test.ts";

// Valid entities (they pass the model's schemas, which the reducer decodes with).

const at = "2026-11-01T10:00:00.000Z";

export const patient = (id: string, over: Partial<Patient> = {}): Patient => ({
  id,
  name: `Patient ${id}`,
  uniqueId: `U-${id}`,
  gender: 0,
  lang: "en",
  birthdate: "1960-05-01",
  createdAt: at,
  updatedAt: at,
  trashedAt: null,
  ...over,
});

export const result = (measurementId: string, patientId: string): MeasurementResult => ({
  measurementId,
  patientId,
  takenAt: at,
  eye: 0,
  pattern: 2,
  strategy: 2,
  sorsStage: 36,
  stimulusSize: 5,
  stimuliShowtime: 200,
  stimuliInterval: 2000,
  meanUpdateTime: 2000,
  presentations: 100,
  examinationTimeInSeconds: 300,
  maxIntensity: 3183,
  thresholds: [30, 28],
  defects: [1, 2],
  normValues: [31, 30],
  meanSensitivity: 29,
  meanDefect: 1.5,
  squareRootLossVariance: 1,
  vfi: 98,
  falseNegatives: 0,
  falsePositives: 0,
  fixationLosses: 0,
  catchTrials: {
    falseNegative: { errors: 0, presentations: 3 },
    falsePositive: { errors: 0, presentations: 3 },
    blindSpot: { errors: 0, presentations: 3 },
  },
  gazeTracking: null,
  estermanScore: null,
  reliabilityScore: null,
  normativeVersion: "1.0",
  gazeCalibration: null,
  background: 31.5,
  deviceAlias: null,
});

/** The older variant's new measurement (G, SORS, adaptive), right eye. */
export const measurement = (id: string, over: Partial<Measurement> = {}): Measurement => ({
  ...newMeasurement(measurementConfigWith({ patientId: "p1", deviceSn: "SN1", displayName: "Test", eye: Eye.Right }, "older"), id, at),
  ...over,
});

export const examination = (id: string, over: Partial<Examination> = {}): Examination => ({
  id,
  patientId: "p1",
  type: "amsler",
  eye: 0,
  notes: "",
  taken: false,
  appointmentId: "a1",
  deviceSn: "SN1",
  result: null,
  config: null,
  createdAt: at,
  updatedAt: at,
  trashedAt: null,
  ...over,
});

export const appointment = (id: string, over: Partial<Appointment> = {}): Appointment => ({
  id,
  patientId: "p1",
  deviceSn: "SN1",
  examinations: [],
  audioGuide: true,
  tutorial: false,
  trackGaze: true,
  standaloneId: null,
  createdAt: at,
  updatedAt: at,
  trashedAt: null,
  ...over,
});

export const device = (sn: string, over: Partial<Device> = {}): Device => ({
  id: `dev-${sn}`,
  deviceSn: sn,
  alias: sn,
  status: "standby",
  lastSeen: null,
  standaloneId: null,
  revision: 1,
  battery: { vr: { level: 80, charging: false }, clicker: { level: 60, charging: false } },
  connection: "CONNECTED",
  perimetries: [],
  appointments: [],
  ...over,
});

export const progress = (over: Partial<RunningTest> = {}): RunningTest => ({
  perimetryId: "m1",
  appointmentId: null,
  nTested: 3,
  nLocations: 54,
  gazeTracking: true,
  thresholds: [{ index: 0, dBValue: 30, answerTime: 500 }],
  lastUpdatedIndex: 0,
  ...over,
});
