// Synthetic patients and results for the CLI tests and bench/export.bench.ts, and an in-memory Api that serves them
// lazily (a patient's results are made when asked for, so a 10,000-result bench never holds them all).
import { getPattern } from "../../core/analytics/patterns.ts";
import { CURRENT_NORMATIVE_VERSION } from "../../core/analytics/normative/registry.ts";
import { ApiError } from "../../core/model/contract/errors.ts";
import { Eye, Pattern, Strategy, TestType } from "../../core/model/enums.ts";
import type { Examination } from "../../core/model/examination.ts";
import type { Measurement } from "../../core/model/measurement.ts";
import type { Patient } from "../../core/model/patient.ts";
import type { Api } from "../../core/ports.ts";
import type { TextSink } from "../../cli/export/sink.ts";

/** Deterministic pseudo-random numbers in [0, 1). */
export function lcg(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export function samplePatient(i: number): Patient {
  return {
    id: `p${String(i).padStart(5, "0")}`,
    name: `Patient ${i}`,
    uniqueId: `U-${1000 + i}`,
    gender: (i % 3) as 0 | 1 | 2,
    lang: "en",
    birthdate: `19${40 + (i % 50)}-0${1 + (i % 9)}-1${i % 10}`,
    createdAt: "2024-01-01T00:00:00.000Z",
    updatedAt: "2024-01-01T00:00:00.000Z",
    trashedAt: null,
  } as Patient;
}

export interface SampleOptions {
  readonly pattern?: Pattern;
  readonly eye?: Eye;
  readonly takenAt?: string;
  /** Catch-trial errors out of 10 false-positive presentations. */
  readonly falsePositives?: number;
  readonly reliable?: boolean;
  readonly withResult?: boolean;
  readonly strategy?: Strategy;
  /** Stored with the last location missing (a broken upload): not valid, so never analysed. */
  readonly lastLocationMissing?: boolean;
  /** Stored with neither the headset's serial number nor its alias (what DICOM's DeviceSerialNumber cannot then say). */
  readonly noDevice?: boolean;
  /** The normative version stored with the result (default the current one, as the headsets store a new result). */
  readonly normativeVersion?: string;
}

/** A hill of vision (about 31 dB at fixation, falling with eccentricity) with noise and, for some, an arcuate defect. */
export function sampleThresholds(pattern: Pattern, eye: Eye, seed: number): number[] {
  const rnd = lcg(seed);
  const g = getPattern(pattern);
  const defect = seed % 3 === 0;
  return g.points.map((p, i) => {
    if (g.blindSpotIndices.includes(i)) return 0;
    const ecc = Math.hypot(p.x, p.y);
    const arc = defect && p.y > 0 && ecc > 8 && ecc < 24 ? 12 * rnd() : 0;
    return Math.max(-1, Math.round((31 - 0.25 * ecc - arc + (rnd() - 0.5) * 4) * 10) / 10);
  });
}

export function sampleMeasurement(patient: Patient, k: number, o: SampleOptions = {}): Measurement {
  const pattern = o.pattern ?? Pattern.P24_2;
  const eye = o.eye ?? (k % 2 === 0 ? Eye.Right : Eye.Left);
  const seed = Number(patient.id.replace(/\D/g, "")) * 100 + k + 1;
  const thresholds = sampleThresholds(pattern, eye, seed).slice(0, o.lastLocationMissing ? -1 : undefined);
  const takenAt = o.takenAt ?? new Date(Date.UTC(2020, 0, 1) + (k * 97 + (seed % 13)) * 86_400_000 + 9.5 * 3_600_000).toISOString();
  const id = `${patient.id}-m${k}`;
  return {
    id,
    patientId: patient.id,
    deviceSn: o.noDevice ? null : "VR-0001",
    displayName: `Test ${k}`,
    eye,
    pattern,
    strategy: o.strategy ?? Strategy.SORS,
    stimuliUpdate: 1500,
    stimuliSize: 2,
    stimuliShowtime: 200,
    sorsStage: 54,
    playSound: true,
    trackGaze: true,
    audioGuide: false,
    tutorial: false,
    notes: "",
    createdAt: takenAt,
    updatedAt: takenAt,
    isFollowingEye: null,
    reliable: o.reliable ?? true,
    baseline: false,
    cloned: false,
    trashedAt: null,
    result:
      o.withResult === false
        ? null
        : {
            measurementId: id,
            patientId: patient.id,
            takenAt,
            eye,
            pattern,
            strategy: o.strategy ?? Strategy.SORS,
            sorsStage: 54,
            stimulusSize: 2,
            stimuliShowtime: 200,
            stimuliInterval: 1500,
            meanUpdateTime: 1500,
            presentations: 260,
            examinationTimeInSeconds: 300 + (seed % 120),
            maxIntensity: 3183,
            thresholds,
            defects: thresholds.map((t) => Math.round((30 - t) * 10) / 10),
            normValues: null,
            meanSensitivity: 27,
            meanDefect: 2,
            squareRootLossVariance: 2.1,
            vfi: 95,
            falseNegatives: 0,
            falsePositives: o.falsePositives ?? 0,
            fixationLosses: 1,
            catchTrials: {
              falseNegative: { errors: 0, presentations: 10 },
              falsePositive: { errors: o.falsePositives ?? seed % 2, presentations: 10 },
              blindSpot: { errors: 1, presentations: 12 },
            },
            gazeTracking: {
              meanDistance: Array.from({ length: 40 }, (_, i) => (i % 9 === 0 ? -1 : 2 + (i % 5) * 0.5)),
              fixationThreshold: 6,
            },
            estermanScore: null,
            reliabilityScore: null,
            normativeVersion: o.normativeVersion ?? CURRENT_NORMATIVE_VERSION, // as the headsets store a new result
            gazeCalibration: true,
            background: 31.5,
            deviceAlias: o.noDevice ? null : "Headset 1",
          },
  } as Measurement;
}

/**
 * A perimetry examination (appointment variant) of an appointment of the patient's, taken with the result the
 * measurement sampleMeasurement(patient, k, o) would have (withResult: false gives one not taken yet).
 */
export function sampleExamination(patient: Patient, k: number, o: SampleOptions = {}): Examination {
  const m = sampleMeasurement(patient, k, o);
  const id = `${patient.id}-e${k}`;
  return {
    id,
    patientId: patient.id,
    type: TestType.Perimetry,
    eye: m.eye,
    notes: k % 2 === 0 ? "" : `exam note ${k}`,
    taken: m.result !== null,
    appointmentId: `${patient.id}-a${k % 2}`,
    deviceSn: m.deviceSn,
    result: m.result && { ...m.result, measurementId: id },
    config: {
      pattern: m.pattern,
      strategy: m.strategy,
      stimuliUpdate: m.stimuliUpdate,
      stimuliSize: m.stimuliSize,
      stimuliShowtime: m.stimuliShowtime,
      sorsLocations: m.sorsStage,
      sorsStage: m.sorsStage,
      playSound: m.playSound,
      trackGaze: m.trackGaze,
      audioGuide: m.audioGuide,
    },
    createdAt: m.createdAt,
    updatedAt: m.updatedAt,
    trashedAt: null,
  } as Examination;
}

export interface FakeClinic {
  readonly patients: number;
  readonly resultsPerPatient: number;
  readonly options?: (patientIndex: number, k: number) => SampleOptions;
  /** Perimetry examinations per patient (appointment variant; default none), the k-th as sampleExamination(p, resultsPerPatient + k). */
  readonly examinationsPerPatient?: number;
  readonly examinationOptions?: (patientIndex: number, k: number) => SampleOptions;
  /** false: a backend without examination.all (answers 404 for it). */
  readonly examinationCall?: boolean;
  /** false: a backend without perimetry.page (answers 404 for it, as an older or other compatible backend would). */
  readonly pageCall?: boolean;
}

/** A result on perimetry.page: a measurement or a perimetry examination, both with a MeasurementResult. */
type Paged = { readonly id: string; readonly patientId: string; readonly trashedAt: string | null; readonly result: Measurement["result"] };

/** perimetry.page's order within a patient: takenAt, then id, as text in byte order (the server's collate "C"). */
const byTakenAtThenId = (a: Paged, b: Paged) =>
  a.result!.takenAt < b.result!.takenAt ? -1 : a.result!.takenAt > b.result!.takenAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

interface PageFilter {
  readonly from: string | null;
  readonly to: string | null;
  readonly pattern: number | null;
  readonly eye: number | null;
}

const keeps = (f: PageFilter, m: Paged) => {
  const r = m.result;
  if (r === null || m.trashedAt !== null) return false;
  const day = new Date(r.takenAt).toISOString().slice(0, 10);
  return (
    (f.pattern === null || r.pattern === f.pattern) &&
    (f.eye === null || r.eye === f.eye) &&
    (f.from === null || day >= f.from) &&
    (f.to === null || day <= f.to)
  );
};

/** A patient's perimetry examinations in a generated clinic (taken or not). */
export const examinationsOf = (clinic: FakeClinic, i: number): Examination[] => {
  const p = samplePatient(i);
  return Array.from({ length: clinic.examinationsPerPatient ?? 0 }, (_, k) =>
    sampleExamination(p, clinic.resultsPerPatient + k, clinic.examinationOptions?.(i, k)),
  );
};

export const FAKE_ORGANISATION = { id: "org-fake", name: "Fake Eye Clinic", multiTests: false, market: "MDR", country: "DE" } as const;

/** The Api port over a generated clinic: organisation.current, patient.get, patient.search (paged), perimetry.all, examination.all and perimetry.page. */
export function fakeApi(clinic: FakeClinic): Api & { calls: string[] } {
  const calls: string[] = [];
  const indexOf = (id: string) => {
    const i = Number(id.slice(1));
    if (!/^p\d{5}$/.test(id) || i >= clinic.patients)
      throw new ApiError({ status: 404, responseType: "not_found", message: `no patient ${id}` });
    return i;
  };
  return {
    calls,
    async call(endpoint: string, input: any): Promise<any> {
      calls.push(endpoint);
      switch (endpoint) {
        case "organisation.current":
          return FAKE_ORGANISATION;
        case "patient.get":
          return samplePatient(indexOf(input.query.id));
        case "patient.search": {
          const { page, quantity } = input.body;
          const from = page * quantity;
          const to = Math.min(clinic.patients, from + quantity);
          return {
            entries: Array.from({ length: Math.max(0, to - from) }, (_, j) => samplePatient(from + j)),
            remaining: Math.max(0, clinic.patients - to),
            page,
          };
        }
        case "perimetry.all": {
          const i = indexOf(input.query.patientId);
          const p = samplePatient(i);
          return Array.from({ length: clinic.resultsPerPatient }, (_, k) => sampleMeasurement(p, k, clinic.options?.(i, k)));
        }
        case "examination.all": {
          if (clinic.examinationCall === false) break;
          // Through fake-backend.ts the query comes as text ("true"), through the Api port as a boolean.
          const { patientId, examinationType, taken } = input.query as {
            patientId: string;
            examinationType?: string;
            taken?: boolean | string;
          };
          return examinationsOf(clinic, indexOf(patientId)).filter(
            (e) =>
              (examinationType === undefined || e.type === examinationType) &&
              (taken === undefined || e.taken === (String(taken) === "true")),
          );
        }
        case "perimetry.page": {
          if (clinic.pageCall === false) break;
          // Patients by id (p00000, p00001, ... is index order), each patient's results by takenAt then id; the cursor
          // is the last result's [patient index, takenAt, id], as opaque to the client as the server's.
          const { filter, after, quantity } = input.body as { filter: PageFilter; after: string | null; quantity: number };
          const cursor = after === null ? null : (JSON.parse(after) as [number, string, string]);
          const resultsOf = (i: number): Paged[] => {
            const p = samplePatient(i);
            const ms: Paged[] = Array.from({ length: clinic.resultsPerPatient }, (_, k) => sampleMeasurement(p, k, clinic.options?.(i, k)));
            const es = examinationsOf(clinic, i) as unknown as Paged[];
            return [...ms, ...es].filter((m) => keeps(filter, m)).sort(byTakenAtThenId);
          };
          const entries: Paged[] = [];
          let more = false;
          for (let i = cursor?.[0] ?? 0; i < clinic.patients && !more; i++)
            for (const m of resultsOf(i)) {
              if (cursor && i === cursor[0] && byTakenAtThenId(m, { id: cursor[2], result: { takenAt: cursor[1] } } as Paged) <= 0)
                continue;
              if (entries.length === quantity) {
                more = true;
                break;
              }
              entries.push(m);
            }
          const last = entries.at(-1);
          const patientIds = [...new Set(entries.map((m) => m.patientId))];
          const counted = () => {
            // Without options every sample is a 24-2 result: the count needs no generation (the bench's 10,000).
            const plain =
              !clinic.options &&
              !clinic.examinationsPerPatient &&
              filter.from === null &&
              filter.to === null &&
              filter.eye === null &&
              (filter.pattern === null || filter.pattern === Pattern.P24_2);
            if (plain)
              return { results: clinic.patients * clinic.resultsPerPatient, patients: clinic.resultsPerPatient > 0 ? clinic.patients : 0 };
            let results = 0,
              patients = 0;
            for (let i = 0; i < clinic.patients; i++) {
              const n = resultsOf(i).length;
              results += n;
              if (n > 0) patients++;
            }
            return { results, patients };
          };
          const isExamination = (m: Paged) => "type" in m;
          return {
            entries: entries.filter((m) => !isExamination(m)),
            ...(clinic.examinationsPerPatient ? { examinations: entries.filter(isExamination) } : {}),
            patients: patientIds.map((id) => samplePatient(indexOf(id))),
            next: more && last ? JSON.stringify([indexOf(last.patientId), last.result!.takenAt, last.id]) : null,
            total: after === null ? counted() : null,
          };
        }
      }
      throw new ApiError({ status: 404, responseType: "not_found", message: `fake api has no ${endpoint}` });
    },
  } as Api & { calls: string[] };
}

/** A text sink that keeps what was written (small exports in tests). */
export function memorySink(): TextSink & { text: () => string; closed: () => boolean } {
  let text = "",
    closed = false;
  return { write: async (s) => void (text += s), close: async () => void (closed = true), text: () => text, closed: () => closed };
}
