import type { Api } from "../../core/ports.ts";
import { matchesFilters, type ExportFilters } from "./filters.ts";
import { resultsOf, type Selection, type SourceEvents } from "./source.ts";
import type { ExportWriter } from "./writer.ts";

export interface ExportSummary {
  readonly patients: number;
  /** Results written. */
  readonly results: number;
  /** Results read but left out by the filters. */
  readonly filteredOut: number;
}

/** Streams the selection through the filters into the writer, one result at a time. */
export async function runExport(
  api: Api,
  selection: Selection,
  filters: ExportFilters,
  writer: ExportWriter,
  events: SourceEvents & { resultWritten?(): void } = {},
): Promise<ExportSummary> {
  let patients = 0, results = 0, filteredOut = 0;
  const source = resultsOf(api, selection, {
    ...events,
    patientDone: (p) => {
      patients++;
      events.patientDone?.(p);
    },
  });
  for await (const record of source) {
    if (!matchesFilters(record, filters)) {
      filteredOut++;
      continue;
    }
    await writer.write(record);
    results++;
    events.resultWritten?.();
  }
  await writer.end();
  return { patients, results, filteredOut };
}
