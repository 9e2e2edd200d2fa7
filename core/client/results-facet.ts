import type { PerimetryTest } from "../model/perimetry-test.ts";
import { CacheKey } from "./cache-keys.ts";
import type { FacetContext } from "./facet-context.ts";

// The results facet (accounts seed §3, §4): what is written on a result. Its lists are cache entries
// (CacheKey.Measurements, CacheKey.Examinations, CacheKey.AmslerGrid) read through `client.cache`.

/** Where a perimetry test lives: a measurement (measurement variant) or a perimetry examination (appointment variant). */
export type ResultSource = PerimetryTest["source"];

export interface ResultsFacet {
  /** "Notes dialog: open, saving, then saved": a measurement's notes through PATCH perimetry, an examination's through
   * examination/update with the notes-only body; the list it shows in is read again. Rejects with the ApiError. */
  saveNotes(source: ResultSource, id: string, notes: string): Promise<void>;
}

export function createResultsFacet(ctx: FacetContext): ResultsFacet {
  return {
    async saveNotes(source, id, notes) {
      if (source === "examination") await ctx.api.call("examination.update", { query: { id }, body: { id, notes } });
      else await ctx.api.call("perimetry.update", { query: { id }, body: { notes } });
      void ctx.cache.refetch(source === "examination" ? CacheKey.Examinations : CacheKey.Measurements);
    },
  };
}
