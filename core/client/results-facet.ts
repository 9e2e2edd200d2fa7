import type { PerimetryTest } from "../model/perimetry-test.ts";
import { CacheKey } from "./cache-keys.ts";
import type { FacetContext } from "./facet-context.ts";
import type { LifecycleAction, LifecycleItem } from "./lifecycle-commands.ts";

// The results facet (accounts seed §3, §4): what is written on a result. Its lists are cache entries
// (CacheKey.Measurements, CacheKey.Examinations, CacheKey.AmslerGrid) read through `client.cache`.

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
}

type Lifecycle = (item: LifecycleItem, action: LifecycleAction, id: string) => Promise<boolean>;

export function createResultsFacet(ctx: FacetContext, lifecycle: Lifecycle): ResultsFacet {
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
  };
}
