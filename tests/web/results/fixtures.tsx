// Stored measurements for the result page's component tests: demo fixtures (24-2 and G) and an engine-run Esterman,
// rendered with a DOM stand-in for Konva (happy-dom has no canvas) that lists each plot's texts and primitive count.
import { useLayoutEffect } from "react";
import { render } from "@testing-library/react";
import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { Provider, createStore } from "jotai";
import { MemoryRouter } from "react-router-dom";
import { memoryStorage } from "../../../adapters/storage/index.ts";
import {
  Eye,
  Pattern,
  Showtime,
  StimuliUpdate,
  Strategy,
  type Eye as EyeT,
  type Pattern as PatternT,
  type Strategy as StrategyT,
} from "../../../core/model/enums.ts";
import { newMeasurement, type Measurement } from "../../../core/model/measurement.ts";
import { measurementConfigWith } from "../../../core/rules/defaults.ts";
import type { MeasurementResult } from "../../../core/model/measurement-result.ts";
import type { Patient } from "../../../core/model/patient.ts";
import type { Storage } from "../../../core/ports.ts";
import { createPerimetryTest, runToEnd } from "../../../simulator/perimetry/engine.ts";
import { toMeasurementResult } from "../../../simulator/perimetry/result.ts";
import { demoResult } from "../../../simulator/server/demo/results.ts";
import { bindClient } from "../../../web/state/start-client.ts";
import { idleSocket } from "../render-app.tsx";
import { systemClock } from "../../../adapters/clock/index.ts";
import { PerimetryResults } from "../../../web/results/PerimetryResults.tsx";
import { fromMeasurement, type PerimetryTest } from "../../../web/results/result-model.ts";
import { shapeCount, shapeTexts } from "../../../web/results/scene-shapes.ts";
import { ShapeRendererContext, type ShapeRendererProps } from "../../../web/results/SceneView.tsx";

export const patient: Patient = {
  id: "p1",
  name: "Test Patient",
  uniqueId: "T-1",
  gender: 0,
  lang: "en",
  birthdate: "1955-03-02",
  createdAt: "2020-01-01T00:00:00.000Z",
  updatedAt: "2020-01-01T00:00:00.000Z",
  trashedAt: null,
};

export function measurement(id: string, result: MeasurementResult, over: Partial<Measurement> = {}): Measurement {
  const config = measurementConfigWith({
    patientId: patient.id,
    deviceSn: null,
    displayName: `Test ${id}`,
    eye: result.eye,
    pattern: result.pattern,
    strategy: result.strategy,
  });
  return { ...newMeasurement(config, id, result.takenAt), result: { ...result, measurementId: id }, ...over };
}

/** A demo fixture result (24-2 scored with the normative database; G with none). */
export function fixture(
  id: string,
  eye: EyeT,
  takenAt: string,
  pattern: PatternT = Pattern.P24_2,
  strategy: StrategyT = Strategy.DS,
): Measurement {
  const ageYears = (Date.parse(takenAt) - Date.parse(patient.birthdate)) / (365.25 * 86400_000);
  return measurement(
    id,
    demoResult({
      measurementId: id,
      patientId: patient.id,
      takenAt,
      ageYears,
      birthdate: patient.birthdate,
      yearsIntoCourse: 1,
      course: "early-glaucoma",
      eye,
      pattern,
      strategy,
      deviceAlias: "Room 1",
      seed: id.length * 7 + eye,
    }),
  );
}

/** A result run by the simulator's engine on an early-glaucoma patient (the device's normals where no database exists). */
export function engine(id: string, eye: EyeT, takenAt: string, pattern: PatternT, strategy: StrategyT): Measurement {
  const spec = { pattern, eye, strategy, stimuliUpdate: StimuliUpdate.Ms1000, stimuliShowtime: Showtime.Ms200 };
  const outcome = runToEnd(createPerimetryTest({ spec, profile: "early", seed: id }));
  return measurement(
    id,
    toMeasurementResult(outcome, spec, {
      measurementId: id,
      patientId: patient.id,
      takenAt,
      deviceAlias: "Room 3",
      gazeCalibration: true,
      patientBirthdate: patient.birthdate,
    }),
  );
}

/** An Esterman 1LT result run by the simulator's engine. */
export function esterman(id: string, takenAt: string): Measurement {
  const spec = {
    pattern: Pattern.Esterman,
    eye: Eye.Binocular,
    strategy: Strategy.OneLevel,
    stimuliUpdate: StimuliUpdate.Ms1000,
    stimuliShowtime: Showtime.Ms500,
  };
  const outcome = runToEnd(createPerimetryTest({ spec, profile: "early", seed: id }));
  return measurement(
    id,
    toMeasurementResult(outcome, spec, {
      measurementId: id,
      patientId: patient.id,
      takenAt,
      deviceAlias: "Room 2",
      gazeCalibration: null,
      patientBirthdate: patient.birthdate,
    }),
  );
}

/** Konva's stand-in: the plot's texts in order and its number of primitives. */
export function DomShapes({ shapes, onDrawn }: ShapeRendererProps) {
  useLayoutEffect(() => onDrawn?.(shapes), [shapes, onDrawn]);
  return (
    <div data-testid="shapes" data-count={shapeCount(shapes)}>
      {shapeTexts(shapes).join("|")}
    </div>
  );
}

/** IntersectionObserver that reports every target in view at once (happy-dom lays nothing out). */
export class InViewObserver {
  constructor(private readonly callback: (entries: Array<{ target: Element; isIntersecting: boolean }>) => void) {}
  observe(target: Element) {
    queueMicrotask(() => this.callback([{ target, isIntersecting: true }]));
  }
  disconnect() {}
  unobserve() {}
}

/** The result side of the page over measurements (mapped as the page maps them) or perimetry tests already mapped. */
export function renderResults(
  measurements: ReadonlyArray<Measurement | PerimetryTest>,
  perimetryId: string,
  storage: Storage = memoryStorage(),
) {
  const tests = measurements.map((m) => ("source" in m ? m : fromMeasurement(m)));
  const store = createStore();
  bindClient(store, {
    api: { call: () => Promise.reject(new Error("no API in this test")) },
    socket: idleSocket(),
    storage,
    clock: systemClock,
  });
  if (!i18n.locale) i18n.loadAndActivate({ locale: "en", messages: {} });
  const view = render(
    <I18nProvider i18n={i18n}>
      <Provider store={store}>
        <MemoryRouter initialEntries={[`/patient/${patient.id}/perimetry/${perimetryId}`]}>
          <ShapeRendererContext.Provider value={DomShapes}>
            <PerimetryResults patient={patient} tests={tests} perimetryId={perimetryId} now="2026-06-01T12:00:00.000Z" />
          </ShapeRendererContext.Provider>
        </MemoryRouter>
      </Provider>
    </I18nProvider>,
  );
  return { ...view, storage };
}
