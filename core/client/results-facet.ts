import type { PacsFetchReport } from "../model/dicom-network.ts";
import type { ImportReport } from "../model/import.ts";
import type { PerimetryTest } from "../model/perimetry-test.ts";
import { CacheKey } from "./cache-keys.ts";
import type { FacetContext } from "./facet-context.ts";
import { sendImport, type ImportOptions, type ImportProgress, type ImportSource } from "./import-results.ts";
import type { LifecycleAction, LifecycleItem } from "./lifecycle-commands.ts";
import type { Reads } from "./reads.ts";

// The results facet (accounts seed §3, §4): what is written on a result, and results brought in from elsewhere (issue
// 29). Its lists are cache entries (CacheKey.Measurements, CacheKey.Examinations, CacheKey.AmslerGrid) read through
// `client.cache`.

/** Where a perimetry test lives: a measurement (measurement variant) or a perimetry examination (appointment variant). */
export type ResultSource = PerimetryTest["source"];

export interface ResultsFacet {
  /** "Notes dialog: open, saving, then saved": a measurement's notes through PATCH perimetry, an examination's through
   * examination/update with the notes-only body; the list it shows in is read again. Rejects with the ApiError. */
  saveNotes(source: ResultSource, id: string, notes: string): Promise<void>;
  /** Moves a result to the bin: a measurement alone, a perimetry examination with its appointment (the bin keeps
   * appointments), or alone when it has none; the list it showed in is read again. False (after the seeds' notice) on
   * failure. */
  trash(source: ResultSource, id: string, appointmentId: string | null): Promise<boolean>;
  /** "Import results" (issue 29): the files in batches through results/import (import-results.ts), progress as files
   * done of all, and every file's report in the order given. Unless a dry run, the patients' lists, their results and
   * the latest results are read again once anything was imported. Rejects with the ApiError only when the server refused
   * the user (401, 403); any other failed call reports its files refused and the rest goes on. */
  importResults(
    files: readonly ImportSource[],
    options: ImportOptions,
    onProgress?: (progress: ImportProgress) => void,
  ): Promise<ImportReport>;
  /** "Fetch priors" (issue 29 §3): the patient's fields from the organisation's PACS through pacs/fetch, imported as on
   * the patient's page (the answer says how many the PACS holds and what became of each). Unless a dry run, the lists
   * an import changes are read again once anything was imported. Rejects with the ApiError: 503 `unavailable` when the
   * PACS cannot be used (its message names it), 404 when none is set. */
  fetchPriors(patientId: string, options: { readonly dryRun: boolean }): Promise<PacsFetchReport>;
}

type Lifecycle = (item: LifecycleItem, action: LifecycleAction, id: string) => Promise<boolean>;

/** What an import changes: patients created (the lists and searches), results added (a patient's lists). */
const importRefetches = [CacheKey.Patients, CacheKey.PatientSearch, CacheKey.Measurements, CacheKey.Examinations] as const;

export function createResultsFacet(ctx: FacetContext, lifecycle: Lifecycle, reads: Pick<Reads, "reload">): ResultsFacet {
  return {
    async trash(source, id, appointmentId) {
      const done =
        source === "measurement"
          ? await lifecycle("measurement", "trash", id)
          : appointmentId !== null
            ? await lifecycle("appointment", "trash", appointmentId)
            : await lifecycle("examination", "trash", id);
      // The live event patches the lists; the acting tab does not wait for it.
      if (done) void ctx.cache.refetch(source === "examination" ? CacheKey.Examinations : CacheKey.Measurements);
      return done;
    },
    async saveNotes(source, id, notes) {
      if (source === "examination") await ctx.api.call("examination.update", { query: { id }, body: { id, notes } });
      else await ctx.api.call("perimetry.update", { query: { id }, body: { notes } });
      void ctx.cache.refetch(source === "examination" ? CacheKey.Examinations : CacheKey.Measurements);
    },
    async importResults(files, options, onProgress) {
      const report = await sendImport(ctx.api, files, options, onProgress);
      if (!report.dryRun && report.files.some((f) => f.action === "imported")) {
        for (const key of importRefetches) void ctx.cache.refetch(key);
        void reads.reload("perimetry.recent");
      }
      return report;
    },
    async fetchPriors(patientId, { dryRun }) {
      const report = await ctx.api.call("pacs.fetch", { body: { patientId, dryRun } });
      if (!dryRun && report.imported.files.some((f) => f.action === "imported")) {
        for (const key of importRefetches) void ctx.cache.refetch(key);
        void reads.reload("perimetry.recent");
      }
      return report;
    },
  };
}
