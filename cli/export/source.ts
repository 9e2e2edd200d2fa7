import type { Measurement } from "../../core/model/measurement.ts";
import type { Patient } from "../../core/model/patient.ts";
import type { Api } from "../../core/ports.ts";
import { exportRecord, type ExportRecord } from "./record.ts";

// Where exported results come from: patient by patient through the Api port. A few patients are asked for ahead of
// the one being written (READ_AHEAD), so network round trips overlap with writing, but never more: the memory an
// export needs is bounded by READ_AHEAD patients' measurements, whatever the size of the organisation.

export type Selection =
  | { readonly kind: "patients"; readonly ids: readonly string[] }
  | { readonly kind: "organisation" };

export interface SourceEvents {
  /** How many patients will be read (known up front for a list, after the first search page for the organisation). */
  patientsTotal?(total: number): void;
  patientDone?(patient: Patient): void;
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
  for (let page = 0; ; page++) {
    const answer = await api.call("patient.search", { body: { filter: { name: "", birthdate: null }, page, quantity: PATIENT_PAGE_SIZE } });
    if (page === 0) events.patientsTotal?.(answer.entries.length + answer.remaining);
    for (const patient of answer.entries) if (patient.trashedAt === null) yield { patient };
    if (answer.remaining <= 0 || answer.entries.length === 0) return;
  }
}

interface Fetched {
  readonly patient: Patient;
  readonly measurements: readonly Measurement[];
}

function fetchPatient(api: Api, ref: PatientRef): Promise<Fetched> {
  const run = async () => {
    const patient = "patient" in ref ? ref.patient : await api.call("patient.get", { query: { id: ref.id } });
    return { patient, measurements: await api.call("perimetry.all", { query: { patientId: patient.id } }) };
  };
  const pending = run();
  pending.catch(() => undefined); // a failure surfaces when its turn comes (awaited below), not as an unhandled rejection
  return pending;
}

/** Every result of the selection, patients in order, oldest result first within a patient. */
export async function* resultsOf(api: Api, selection: Selection, events: SourceEvents = {}, readAhead = READ_AHEAD): AsyncGenerator<ExportRecord> {
  const refs = patientRefs(api, selection, events);
  const queue: Array<Promise<Fetched>> = [];
  let exhausted = false;
  const fill = async (limit: number) => {
    while (!exhausted && queue.length < limit) {
      const next = await refs.next();
      if (next.done) exhausted = true;
      else queue.push(fetchPatient(api, next.value));
    }
  };
  await fill(1);
  while (queue.length > 0) {
    const current = queue.shift()!;
    await fill(readAhead); // the patients after this one, fetched while this one is written
    const { patient, measurements } = await current;
    const records = measurements.flatMap((m) => {
      const r = exportRecord(patient, m);
      return r ? [r] : [];
    });
    records.sort((a, b) => Date.parse(a.result.takenAt) - Date.parse(b.result.takenAt));
    for (const r of records) yield r;
    events.patientDone?.(patient);
    if (queue.length === 0) await fill(1);
  }
}
