import type { Api } from "../../core/ports.ts";
import { matchesFilters, type ExportFilters } from "./filters.ts";
import { READ_AHEAD, resultsOf, type Selection, type SourceEvents } from "./source.ts";
import type { ExportWriter } from "./writer.ts";

export interface ExportSummary {
  readonly patients: number;
  /** Results written. */
  readonly results: number;
  /** Results read but left out by the filters (the server may already have left out some: perimetry.page). */
  readonly filteredOut: number;
  /** Ids of results left out as not valid (a location without a value: core/analytics/stored-result.ts), in the order read. */
  readonly invalid: readonly string[];
}

/** Streams the selection through the filters into the writer, one result at a time. */
export async function runExport(
  api: Api,
  selection: Selection,
  filters: ExportFilters,
  writer: ExportWriter,
  events: SourceEvents & { resultWritten?(): void } = {},
): Promise<ExportSummary> {
  let patients = 0,
    results = 0,
    filteredOut = 0;
  const invalid: string[] = [];
  // The server may leave out what the date, pattern and eye filters would (perimetry.page); every record is still checked.
  const { from, to, pattern, eye } = filters;
  const serverFilters = {
    ...(from !== undefined ? { from } : {}),
    ...(to !== undefined ? { to } : {}),
    ...(pattern !== undefined ? { pattern } : {}),
    ...(eye !== undefined ? { eye } : {}),
  };
  const source = resultsOf(
    api,
    selection,
    {
      ...events,
      patientDone: (p) => {
        patients++;
        events.patientDone?.(p);
      },
    },
    READ_AHEAD,
    { filters: serverFilters },
  );
  for await (const record of source) {
    // The web analyses only valid results; the export writes only analysed ones, and names the others.
    if (!record.valid) {
      invalid.push(record.test.id);
      continue;
    }
    if (!matchesFilters(record, filters)) {
      filteredOut++;
      continue;
    }
    await writer.write(record);
    results++;
    events.resultWritten?.();
  }
  await writer.end();
  return { patients, results, filteredOut, invalid };
}
