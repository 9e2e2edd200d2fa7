import type { Patient } from "../../core/model/patient.ts";
import type { Api } from "../../core/ports.ts";
import { exportRecord, type ExportRecord } from "./record.ts";

// Where exported results come from: patient by patient through the Api port. One patient's measurements are held at
// a time (perimetry/all answers per patient), each turned into a record and handed on before the next patient is
// asked for, so the memory an export needs does not grow with the organisation.

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

async function* patientsOf(api: Api, selection: Selection, events: SourceEvents): AsyncGenerator<Patient> {
  if (selection.kind === "patients") {
    const ids = [...new Set(selection.ids)];
    events.patientsTotal?.(ids.length);
    for (const id of ids) yield await api.call("patient.get", { query: { id } });
    return;
  }
  for (let page = 0; ; page++) {
    const answer = await api.call("patient.search", { body: { filter: { name: "", birthdate: null }, page, quantity: PATIENT_PAGE_SIZE } });
    if (page === 0) events.patientsTotal?.(answer.entries.length + answer.remaining);
    for (const p of answer.entries) if (p.trashedAt === null) yield p;
    if (answer.remaining <= 0 || answer.entries.length === 0) return;
  }
}

/** Every result of the selection, oldest first within a patient. */
export async function* resultsOf(api: Api, selection: Selection, events: SourceEvents = {}): AsyncGenerator<ExportRecord> {
  for await (const patient of patientsOf(api, selection, events)) {
    const measurements = await api.call("perimetry.all", { query: { patientId: patient.id } });
    const records = measurements.flatMap((m) => {
      const r = exportRecord(patient, m);
      return r ? [r] : [];
    });
    records.sort((a, b) => Date.parse(a.result.takenAt) - Date.parse(b.result.takenAt));
    for (const r of records) yield r;
    events.patientDone?.(patient);
  }
}
