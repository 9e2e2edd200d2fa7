import { describe, expect, it, vi } from "vitest";

vi.mock("@lingui/core/macro", () => import("./lingui-shim.tsx"));
vi.mock("@lingui/react/macro", () => import("./lingui-shim.tsx"));

import { Eye, Pattern, Showtime, StimuliUpdate, StimulusSize, Strategy, TestType } from "../../../core/model/enums.ts";
import type { Examination } from "../../../core/model/examination.ts";
import {
  fromExamination,
  fromMeasurement,
  hasResult,
  markedResult,
  perimetryTests,
  previousOfSameKind,
  progressionPoints,
} from "../../../web/results/result-model.ts";
import { fixture, patient } from "./fixtures.tsx";

// The one mapping from what each variant stores to what the result page draws (web/results/result-model.ts): a
// measurement, or an examination whose result is a MeasurementResult (appointment variant).

const config = {
  pattern: Pattern.G,
  strategy: Strategy.SORS,
  stimuliUpdate: StimuliUpdate.Ms2000,
  stimuliSize: StimulusSize.III_ADAPTIVE,
  stimuliShowtime: Showtime.Ms200,
  sorsLocations: 36,
  sorsStage: 36,
  playSound: false,
  trackGaze: true,
  audioGuide: true,
} as const;

function exam(id: string, over: Partial<Examination> = {}): Examination {
  return {
    id,
    patientId: patient.id,
    type: TestType.Perimetry,
    eye: Eye.Left,
    notes: "",
    taken: false,
    appointmentId: "a1",
    deviceSn: "VR-A001",
    result: null,
    config,
    createdAt: "2026-01-01T08:00:00.000Z",
    updatedAt: "2026-01-01T08:00:00.000Z",
    trashedAt: null,
    ...over,
  };
}

const taken = (id: string, eye: Eye, takenAt: string, over: Partial<Examination> = {}) =>
  exam(id, { eye, taken: true, result: { ...fixture(id, eye, takenAt).result!, measurementId: id }, ...over });

describe("fromExamination", () => {
  it("a taken perimetry examination: its result, the result's eye, pattern and strategy, its notes; no display name", () => {
    const e = taken("e1", Eye.Right, "2026-02-01T09:00:00.000Z", { notes: "Tired.", config });
    const t = fromExamination(e)!;
    expect(t).toEqual({
      id: "e1",
      source: "examination",
      patientId: patient.id,
      eye: Eye.Right,
      pattern: Pattern.P24_2,
      strategy: Strategy.DS,
      displayName: null,
      notes: "Tired.",
      result: e.result,
      createdAt: e.createdAt,
      trashedAt: null,
    });
    // The very result object (the page caches analyses per result object).
    expect(t.result).toBe(e.result);
    expect(hasResult(t)).toBe(true);
  });

  it("an untaken perimetry examination: no result, eye and settings from its configuration", () => {
    expect(fromExamination(exam("e2"))).toMatchObject({
      source: "examination",
      eye: Eye.Left,
      pattern: Pattern.G,
      strategy: Strategy.SORS,
      result: null,
    });
  });

  it("is null for other test types, an Amsler answer, or a perimetry examination with neither result nor configuration", () => {
    const amsler = { answer: "healthy", takenAt: "2026-01-01T09:00:00.000Z", deviceSn: "VR-A001", appointmentId: "a1" } as const;
    expect(fromExamination(exam("x1", { type: TestType.Amsler, config: null, result: amsler, taken: true }))).toBeNull();
    expect(fromExamination(exam("x2", { type: TestType.Acuity, config: null }))).toBeNull();
    expect(fromExamination(exam("x3", { config: null }))).toBeNull();
    // A perimetry examination can hold no Amsler answer as its result: it is not shown as one.
    expect(fromExamination(exam("x4", { result: amsler, taken: true }))!.result).toBeNull();
  });
});

describe("perimetryTests: measurements and examinations as one list", () => {
  const m1 = fixture("m1", Eye.Right, "2024-06-01T09:00:00.000Z");
  const e1 = taken("e1", Eye.Right, "2025-06-01T09:00:00.000Z");
  const e2 = taken("e2", Eye.Left, "2023-06-01T09:00:00.000Z");

  it("oldest first, each kind mapped, other test types left out", () => {
    const list = perimetryTests([m1], [e1, e2, exam("am", { type: TestType.Amsler, config: null })]);
    expect(list.map((t) => [t.id, t.source])).toEqual([
      ["e2", "examination"],
      ["m1", "measurement"],
      ["e1", "examination"],
    ]);
    expect(list[1]).toEqual(fromMeasurement(m1));
    expect(list[1]!.displayName).toBe("Test m1");
  });

  it("an examination goes through the same baseline rules, progression points and difference reference as a measurement", () => {
    const results = perimetryTests([m1], [e1, e2]).filter(hasResult);
    const exam1 = results.find((t) => t.id === "e1")!;
    expect(markedResult(exam1)).toEqual({
      id: "e1",
      eye: Eye.Right,
      pattern: Pattern.P24_2,
      takenAt: e1.result!.takenAt,
      valid: true,
      hasNormativeDatabase: true,
    });
    expect(previousOfSameKind(results, exam1)!.id).toBe("m1");
    const points = progressionPoints(results, new Set(["e2"]), () => -1);
    expect(points.map((p) => [p.measurementId, p.eye, p.valid, p.unreliable])).toEqual([
      ["e2", Eye.Left, true, true],
      ["m1", Eye.Right, true, false],
      ["e1", Eye.Right, true, false],
    ]);
  });

  it("keeps one entry per id", () => {
    expect(perimetryTests([m1], [taken("m1", Eye.Right, "2025-01-01T09:00:00.000Z")]).map((t) => t.source)).toEqual(["measurement"]);
  });
});
