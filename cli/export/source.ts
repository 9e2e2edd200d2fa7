import { setImmediate as turn } from "node:timers/promises";
import { ApiError } from "../../core/model/contract/errors.ts";
import type { PerimetryPage, PerimetryPageFilter } from "../../core/model/contract/index.ts";
import { type Eye, type Pattern, TestType } from "../../core/model/enums.ts";
import type { Examination } from "../../core/model/examination.ts";
import type { Measurement } from "../../core/model/measurement.ts";
import type { Patient } from "../../core/model/patient.ts";
import type { Api } from "../../core/ports.ts";
import { byTakenAt, examinationRecord, exportRecord, type ExportRecord } from "./record.ts";

// Where exported results come from, through the Api port. A result is a measurement's (measurement variant) or a
// taken perimetry examination's (appointment variant); a clinic that switched variants has both, exported as one
// history (record.ts, core/model/perimetry-test.ts).
// - The whole organisation: perimetry.page, the results across patients a page at a time (patients by id, each
//   patient's results oldest first; the server applies the date, pattern and eye filters). The next page is asked
//   for while this one is written, never more: the memory an export needs is two pages and one patient's results,
//   whatever the size of the organisation.
// - A list of patients, or a backend without perimetry.page (it answers 404): patient by patient (patient.search
//   pages for the organisation, then perimetry.all and examination.all per patient). A few patients are asked for ahead of the one being
//   written (READ_AHEAD), so round trips overlap with writing, but never more.

export type Selection = { readonly kind: "patients"; readonly ids: readonly string[] } | { readonly kind: "organisation" };

export interface SourceEvents {
  /** How many patients will be read: up front for a list, from the first page of perimetry.page, or page by page from patient.search (its remaining is counted only so far ahead). */
  patientsTotal?(total: number): void;
  patientDone?(patient: Patient): void;
}

/** Results per perimetry.page call. */
export const RESULTS_PAGE_SIZE = 200;

/** What the server may filter on before sending (the export still checks every record: see filters.ts). */
export interface ServerFilters {
  readonly from?: string;
  readonly to?: string;
  readonly pattern?: Pattern;
  readonly eye?: Eye;
}

export interface SourceOptions {
  readonly filters?: ServerFilters;
  /** Results per perimetry.page call (default RESULTS_PAGE_SIZE). */
  readonly pageSize?: number;
}

/** Organisation-wide patient paging: patient/search with an empty name matches everyone (our contract's design). */
export const PATIENT_PAGE_SIZE = 100;
/** Patients fetched ahead of the one being written (so at most READ_AHEAD + 1 patients' measurements are held). */
export const READ_AHEAD = 4;

/** A patient to read: the whole patient when a search page brought it, else just its id. */
type PatientRef = { readonly patient: Patient } | { readonly id: string };

async function* patientRefs(api: Api, selection: Selection, events: SourceEvents): AsyncGenerator<PatientRef> {
  if (selection.kind === "patients") {
    const ids = [...new Set(selection.ids)];
    events.patientsTotal?.(ids.length);
    for (const id of ids) yield { id };
    return;
  }
  for (let page = 0, before = 0; ; page++) {
    const answer = await api.call("patient.search", { body: { filter: { name: "", birthdate: null }, page, quantity: PATIENT_PAGE_SIZE } });
    // remaining may be counted only so far ahead (the server's cheap count), so the total grows as pages come.
    before += answer.entries.length;
    events.patientsTotal?.(before + answer.remaining);
    for (const patient of answer.entries) if (patient.trashedAt === null) yield { patient };
    if (answer.remaining <= 0 || answer.entries.length === 0) return;
  }
}

interface Fetched {
  readonly patient: Patient;
  readonly measurements: readonly Measurement[];
  readonly examinations: readonly Examination[];
}

/** examination.all, once a backend has answered that it has no such call: none (it stores measurements only). */
interface ExaminationCalls {
  unknown: boolean;
}

async function takenPerimetryExaminations(api: Api, patientId: string, calls: ExaminationCalls): Promise<readonly Examination[]> {
  if (calls.unknown) return [];
  try {
    return await api.call("examination.all", { query: { patientId, examinationType: TestType.Perimetry, taken: true } });
  } catch (e) {
    if (!unknownCall(e)) throw e;
    calls.unknown = true;
    return [];
  }
}

function fetchPatient(api: Api, ref: PatientRef, calls: ExaminationCalls): Promise<Fetched> {
  const run = async () => {
    const patient = "patient" in ref ? ref.patient : await api.call("patient.get", { query: { id: ref.id } });
    const [measurements, examinations] = await Promise.all([
      api.call("perimetry.all", { query: { patientId: patient.id } }),
      takenPerimetryExaminations(api, patient.id, calls),
    ]);
    return { patient, measurements, examinations };
  };
  const pending = run();
  pending.catch(() => undefined); // a failure surfaces when its turn comes (awaited below), not as an unhandled rejection
  return pending;
}

/**
 * Every result of the selection, patient by patient, oldest result first within a patient. Patients come in the
 * order given (a list), by id (the organisation through perimetry.page), or by name (the organisation through
 * patient.search, when the backend lacks perimetry.page).
 */
export async function* resultsOf(
  api: Api,
  selection: Selection,
  events: SourceEvents = {},
  readAhead = READ_AHEAD,
  options: SourceOptions = {},
): AsyncGenerator<ExportRecord> {
  if (selection.kind === "organisation") {
    const filter = pageFilter(options.filters ?? {});
    const quantity = options.pageSize ?? RESULTS_PAGE_SIZE;
    const first = await firstPage(api, filter, quantity);
    if (first !== null) {
      yield* pagedResults(api, filter, quantity, first, events);
      return;
    }
  }
  yield* perPatientResults(api, selection, events, readAhead);
}

const pageFilter = (f: ServerFilters): PerimetryPageFilter => ({
  from: f.from ?? null,
  to: f.to ?? null,
  pattern: f.pattern ?? null,
  eye: f.eye ?? null,
});

/** A backend that does not know a call answers 404 (or 405/501); anything else is a real failure. */
const unknownCall = (e: unknown) => e instanceof ApiError && (e.status === 404 || e.status === 405 || e.status === 501);

/** The first page, or null when the backend has no perimetry.page (then the export reads patient by patient). */
async function firstPage(api: Api, filter: PerimetryPageFilter, quantity: number): Promise<PerimetryPage | null> {
  try {
    return await api.call("perimetry.page", { body: { filter, after: null, quantity } });
  } catch (e) {
    if (unknownCall(e)) return null;
    throw e;
  }
}

async function* pagedResults(
  api: Api,
  filter: PerimetryPageFilter,
  quantity: number,
  first: PerimetryPage,
  events: SourceEvents,
): AsyncGenerator<ExportRecord> {
  events.patientsTotal?.(first.total?.patients ?? first.patients.length);
  // The patient being gathered: its results may run on into the next page.
  let patient: Patient | null = null;
  let records: ExportRecord[] = [];
  let page: PerimetryPage | null = first;
  while (page !== null) {
    let next: Promise<PerimetryPage> | null = null;
    if (page.next !== null) {
      next = api.call("perimetry.page", { body: { filter, after: page.next, quantity } });
      next.catch(() => undefined); // surfaces when awaited below, after this page's results
    }
    // A page's results come by patient (page.patients, in order), split by kind: each patient's records are its
    // measurements and its examinations of the page, ordered within the patient by byTakenAt. Records (and the
    // analyses they keep) are made patient by patient, as they are written, never a page of them at once.
    const patients = new Map(page.patients.map((p) => [p.id, p]));
    const ofPatient = new Map<string, { measurements: Measurement[]; examinations: Examination[] }>();
    const stored = (patientId: string, id: string) => {
      if (!patients.has(patientId)) throw new Error(`perimetry.page answered result ${id} without its patient ${patientId}`);
      let tests = ofPatient.get(patientId);
      if (!tests) ofPatient.set(patientId, (tests = { measurements: [], examinations: [] }));
      return tests;
    };
    for (const m of page.entries) stored(m.patientId, m.id).measurements.push(m);
    for (const e of page.examinations ?? []) stored(e.patientId, e.id).examinations.push(e);
    for (const p of page.patients) {
      if (patient === null || p.id !== patient.id) {
        if (patient !== null) {
          for (const r of byTakenAt(records)) yield r;
          events.patientDone?.(patient);
          // A turn of the event loop between patients: the next page's bytes are read as they come, so the server is
          // not held up by a full socket while this page is written (a writer need not await anything real).
          await turn();
        }
        patient = p;
        records = [];
      }
      const tests = ofPatient.get(p.id);
      for (const m of tests?.measurements ?? []) {
        const r = exportRecord(p, m);
        if (r) records.push(r);
      }
      for (const e of tests?.examinations ?? []) {
        const r = examinationRecord(p, e);
        if (r) records.push(r);
      }
    }
    page = next === null ? null : await next;
  }
  if (patient !== null) {
    for (const r of byTakenAt(records)) yield r;
    events.patientDone?.(patient);
  }
}

/** Patient by patient: the list given, or the organisation through patient.search. */
async function* perPatientResults(api: Api, selection: Selection, events: SourceEvents, readAhead: number): AsyncGenerator<ExportRecord> {
  const refs = patientRefs(api, selection, events);
  const calls: ExaminationCalls = { unknown: false };
  const queue: Array<Promise<Fetched>> = [];
  let exhausted = false;
  const fill = async (limit: number) => {
    while (!exhausted && queue.length < limit) {
      const next = await refs.next();
      if (next.done) exhausted = true;
      else queue.push(fetchPatient(api, next.value, calls));
    }
  };
  await fill(1);
  while (queue.length > 0) {
    const current = queue.shift()!;
    await fill(readAhead); // the patients after this one, fetched while this one is written
    const { patient, measurements, examinations } = await current;
    const records: ExportRecord[] = [];
    for (const m of measurements) {
      const r = exportRecord(patient, m);
      if (r) records.push(r);
    }
    for (const e of examinations) {
      const r = examinationRecord(patient, e);
      if (r) records.push(r);
    }
    for (const r of byTakenAt(records)) yield r;
    events.patientDone?.(patient);
    if (queue.length === 0) await fill(1);
  }
}
