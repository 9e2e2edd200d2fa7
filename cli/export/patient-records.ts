import type { ExportRecord } from "./record.ts";

// Records stream a patient's together, oldest first (source.ts). What a result's output needs of its patient's other
// results (the progression at the eye's latest result, the fellow eye of a visit tested later that day) comes from
// holding the patient's records until the next patient's first, or the end: memory is bounded by one patient's records
// (each its stored result and, once analysed, its analysis), whatever the size of the export.

export interface HeldPerPatient {
  add(r: ExportRecord): Promise<void>;
  /** Hands on the records held (the last patient's at the end). */
  flush(): Promise<void>;
}

/** Holds one patient's records, then hands them on together, in the order they came. */
export function heldPerPatient(emit: (records: readonly ExportRecord[]) => Promise<void>): HeldPerPatient {
  let held: ExportRecord[] = [];
  const flush = async () => {
    if (held.length === 0) return;
    const records = held;
    held = [];
    await emit(records);
  };
  return {
    async add(r) {
      if (held.length > 0 && held[0]!.patient.id !== r.patient.id) await flush();
      held.push(r);
    },
    flush,
  };
}
